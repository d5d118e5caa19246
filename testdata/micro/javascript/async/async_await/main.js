// Pattern: async functions awaiting other async functions and async methods, with try/catch around await.
// Modelled on koa/express-async handlers that load a session, then a user, then render.
async function loadSession(token) {
  return { token, userId: token === 'valid' ? 7 : null };
}

async function loadUser(id) {
  if (id === null) {
    throw new Error('no user for session');
  }
  return { id, name: 'grace' };
}

class Renderer {
  async render(user) {
    const header = await this.header();
    return `${header} welcome ${user.name}`;
  }

  async header() {
    return '[site]';
  }
}

async function handleRequest(token) {
  try {
    const session = await loadSession(token);
    const user = await loadUser(session.userId);
    return await new Renderer().render(user);
  } catch (err) {
    return `error page: ${err.message}`;
  }
}

(async () => {
  console.log(await handleRequest('valid'));
  console.log(await handleRequest('expired'));
})();
