// Pattern: functions stored in arrays, Maps and plain objects, then dispatched by key (`handlers[name]()`,
// `map.get(k)(...)`) or by iteration. Modelled on redux reducer maps and on koa/express middleware stacks.
'use strict';

function addTodo(state, action) {
  return [...state, action.text];
}

function removeTodo(state, action) {
  return state.filter((t) => t !== action.text);
}

function clearTodos() {
  return [];
}

const reducers = {
  add: addTodo,
  remove: removeTodo,
};

const commands = new Map([
  ['clear', clearTodos],
  ['noop', (state) => state],
]);

function trim(action) {
  return { ...action, text: action.text && action.text.trim() };
}

function lowercase(action) {
  return { ...action, text: action.text && action.text.toLowerCase() };
}

const preprocessors = [trim, lowercase];

function dispatch(state, action) {
  const prepared = preprocessors.reduce((a, step) => step(a), action);
  const handler = reducers[prepared.type] || commands.get(prepared.type);
  return handler(state, prepared);
}

let state = [];
state = dispatch(state, { type: 'add', text: ' Milk ' });
state = dispatch(state, { type: 'add', text: 'Eggs' });
state = dispatch(state, { type: 'remove', text: 'milk' });
console.log(state.join(','));
state = dispatch(state, { type: 'noop' });
state = dispatch(state, { type: 'clear' });
console.log(state.length);
