# Pattern: `asyncio.run(main())` and a chain of awaited coroutine functions and
# async methods. Modelled on aiohttp-style client code (session.get -> read body).
import asyncio


class Response:
    def __init__(self, url, body):
        self.url = url
        self._body = body

    async def text(self):
        await asyncio.sleep(0)
        return self._body.decode()


class Session:
    async def get(self, url):
        body = await fetch_bytes(url)
        return Response(url, body)


async def fetch_bytes(url):
    await asyncio.sleep(0)
    return f"content of {url}".encode()


async def download(session, url):
    response = await session.get(url)
    return await response.text()


async def main():
    session = Session()
    print(await download(session, "https://example.test/a"))


asyncio.run(main())
