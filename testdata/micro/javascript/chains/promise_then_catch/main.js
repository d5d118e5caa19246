// Pattern: promise chains `.then(cb).then(cb).catch(cb).finally(cb)` where the callbacks are named
// functions of the program. Modelled on node-fetch / axios consumers.
function fetchJson(url) {
  if (url.endsWith('/broken')) {
    return Promise.reject(new Error(`bad response from ${url}`));
  }
  return Promise.resolve('{"name":"ada","repos":3}');
}

function parseBody(text) {
  return JSON.parse(text);
}

function summarize(user) {
  return `${user.name} has ${user.repos} repos`;
}

function print(line) {
  console.log(line);
}

function handleError(err) {
  console.log('failed:', err.message);
}

function done() {
  console.log('request finished');
}

fetchJson('https://api.example/users/ada').then(parseBody).then(summarize).then(print).catch(handleError).finally(done);
fetchJson('https://api.example/broken').then(parseBody).catch(handleError);
