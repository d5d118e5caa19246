// Pattern: arrow and function-expression callbacks passed to forEach/map/filter/reduce/sort,
// each calling named helpers. Modelled on lodash-style collection pipelines over records.
'use strict';

function isActive(user) {
  return user.active;
}

function displayName(user) {
  return user.first + ' ' + user.last;
}

function compareByAge(a, b) {
  return a.age - b.age;
}

function addAge(total, user) {
  return total + user.age;
}

const users = [
  { first: 'Ada', last: 'Lovelace', age: 36, active: true },
  { first: 'Alan', last: 'Turing', age: 41, active: false },
  { first: 'Grace', last: 'Hopper', age: 85, active: true },
];

const active = users.filter((u) => isActive(u));
const sorted = active.slice().sort(function byAge(a, b) {
  return compareByAge(a, b);
});
const names = sorted.map((u) => displayName(u));
const totalAge = users.reduce(function (acc, u) {
  return addAge(acc, u);
}, 0);

const out = [];
names.forEach((name, i) => {
  out.push(i + ':' + name);
});

console.log(out.join(', '), totalAge);
