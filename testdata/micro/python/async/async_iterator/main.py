# Pattern: `async for` over an object implementing __aiter__/__anext__, and over
# an async generator function; an async comprehension. Modelled on
# aiohttp StreamReader line iteration / paginated API clients.
import asyncio


class Paginator:
    def __init__(self, pages):
        self.pages = pages
        self.index = 0

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.index >= len(self.pages):
            raise StopAsyncIteration
        page = await self.fetch_page(self.index)
        self.index += 1
        return page

    async def fetch_page(self, index):
        await asyncio.sleep(0)
        return self.pages[index]


async def iter_items(paginator):
    async for page in paginator:
        for item in page:
            yield item


async def main():
    items = []
    async for item in iter_items(Paginator([[1, 2], [3]])):
        items.append(item)
    doubled = [i * 2 async for i in iter_items(Paginator([[4], [5]]))]
    print(items, doubled)


asyncio.run(main())
