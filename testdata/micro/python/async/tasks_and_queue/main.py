# Pattern: asyncio.create_task on coroutines, asyncio.Queue producer/consumer,
# and awaiting tasks; coroutine methods passed as task targets. Modelled on
# worker-pool code in aiohttp/uvicorn servers.
import asyncio


class Worker:
    def __init__(self, name, queue, results):
        self.name = name
        self.queue = queue
        self.results = results

    async def run(self):
        while True:
            job = await self.queue.get()
            if job is None:
                self.queue.task_done()
                return
            self.results.append(await process(job))
            self.queue.task_done()


async def process(job):
    await asyncio.sleep(0)
    return job * job


async def produce(queue, jobs, workers):
    for job in jobs:
        await queue.put(job)
    for _ in range(workers):
        await queue.put(None)


async def main():
    queue = asyncio.Queue()
    results = []
    tasks = [asyncio.create_task(Worker(f"w{i}", queue, results).run()) for i in range(2)]
    await produce(queue, [1, 2, 3, 4], len(tasks))
    await asyncio.gather(*tasks)
    print(sorted(results))


asyncio.run(main())
