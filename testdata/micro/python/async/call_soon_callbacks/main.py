# Pattern: plain callbacks scheduled on the event loop with loop.call_soon (with
# args and via functools.partial) and a future's add_done_callback; the loop runs
# them implicitly. Modelled on asyncio.Protocol / transport internals.
import asyncio
import functools

events = []


def on_connect(peer):
    events.append(f"connected {peer}")


def on_data(peer, data):
    events.append(f"{peer} sent {data!r}")


def on_done(future):
    events.append(f"result {future.result()}")


def resolve(future, value):
    future.set_result(value)


async def main():
    loop = asyncio.get_running_loop()
    loop.call_soon(on_connect, "10.0.0.1")
    loop.call_soon(functools.partial(on_data, "10.0.0.1", b"ping"))
    future = loop.create_future()
    future.add_done_callback(on_done)
    loop.call_soon(resolve, future, 42)
    await future
    await asyncio.sleep(0)
    print(events)


asyncio.run(main())
