"""Proves that a call releases the GIL, without timing. With a switch
interval of 1,000 s the interpreter never takes the GIL from a thread that
runs Python code: a thread waiting for it runs again only when the holder
releases it. The worker repeats the call; the main thread waits until the
worker is about to call, and when it runs again it checks that the worker
is inside the call. A call that kept the GIL would loop forever: the
faulthandler watchdog (a C thread, which needs no GIL) then ends the test
run with every thread's stack."""
import faulthandler
import sys
import threading

WATCHDOG_SECONDS = 30


def assert_releases_gil(call):
    entered = threading.Event()
    stop = threading.Event()
    state = {"inside": False, "calls": 0, "error": None}

    def worker():
        try:
            while not stop.is_set():
                state["inside"] = True
                entered.set()
                call()
                state["inside"] = False
                state["calls"] += 1
        except BaseException as e:  # reported by the main thread
            state["error"] = e
            state["inside"] = False
            entered.set()

    old_interval = sys.getswitchinterval()
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
    sys.setswitchinterval(1000)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        entered.wait()
        # Running again: the worker released the GIL. Only its call can have.
        inside_when_woken = state["inside"]
        stop.set()
        thread.join()
    finally:
        sys.setswitchinterval(old_interval)
        faulthandler.cancel_dump_traceback_later()
    assert state["error"] is None, state["error"]
    assert inside_when_woken, "the main thread ran while the worker was outside the call"
