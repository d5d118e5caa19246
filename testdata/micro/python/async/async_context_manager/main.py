# Pattern: `async with` implicitly awaits __aenter__/__aexit__; also an
# @contextlib.asynccontextmanager generator. Modelled on aiohttp.ClientSession
# and asyncpg connection pool `async with pool.acquire() as conn`.
import asyncio
import contextlib


class Connection:
    def __init__(self, pool):
        self.pool = pool

    async def execute(self, query):
        await asyncio.sleep(0)
        self.pool.log.append(f"exec {query}")


class Acquire:
    def __init__(self, pool):
        self.pool = pool

    async def __aenter__(self):
        self.pool.log.append("acquire")
        return Connection(self.pool)

    async def __aexit__(self, exc_type, exc, tb):
        self.pool.log.append("release")
        return False


class Pool:
    def __init__(self):
        self.log = []

    def acquire(self):
        return Acquire(self)


@contextlib.asynccontextmanager
async def transaction(conn):
    await conn.execute("BEGIN")
    yield conn
    await conn.execute("COMMIT")


async def main():
    pool = Pool()
    async with pool.acquire() as conn:
        async with transaction(conn) as tx:
            await tx.execute("INSERT 1")
    print(pool.log)


asyncio.run(main())
