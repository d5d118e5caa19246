# Pattern: `asyncio.gather` over coroutines created by different coroutine
# functions (some via a list comprehension, one via a bound async method).
# Modelled on concurrent health checks / crawler fan-out code.
import asyncio


async def check_http(host):
    await asyncio.sleep(0)
    return f"{host}:http ok"


async def check_dns(host):
    await asyncio.sleep(0)
    return f"{host}:dns ok"


class Monitor:
    def __init__(self, hosts):
        self.hosts = hosts

    async def check_all(self):
        http = [check_http(h) for h in self.hosts]
        results = await asyncio.gather(*http, check_dns(self.hosts[0]), self.heartbeat())
        return sorted(results)

    async def heartbeat(self):
        return "monitor:alive"


async def main():
    print(await Monitor(["a.test", "b.test"]).check_all())


asyncio.run(main())
