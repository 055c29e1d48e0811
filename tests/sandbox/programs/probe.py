"""Python probes run inside the sandbox by the escape-and-limits suite.

usage: probe.py WHAT [ARGS...]; each probe prints what it achieved (ESCAPED ..., READ ...), so
the suite can assert on both the verdict and the absence of an escape.
"""
import os
import sys


def net(host, port):
    import socket
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect((host, int(port)))
    s.sendall(b"ESCAPED")
    print("CONNECTED")


def dns():
    import socket
    try:
        print("RESOLVED", socket.getaddrinfo("example.com", 80))
    except OSError as e:
        print("NO DNS", e)
        sys.exit(1)


def read(*paths):
    for p in paths:
        try:
            with open(os.path.expanduser(p), "rb") as f:
                print("READ", p, f.read(200))
        except OSError as e:
            print("DENIED", p, e.strerror)


def environ(ppid):
    for k, v in os.environ.items():
        print("ENV", k, v)
    read("/proc/%s/environ" % ppid, "/proc/1/environ")


def write(*paths):
    for p in paths:
        try:
            with open(p, "w") as f:
                f.write("ESCAPED")
            print("WROTE", p)
        except OSError as e:
            print("DENIED", p, e.strerror)


def persist_write():
    write("/work/state.txt", "/tmp/state.txt")


def persist_check():
    for p in ("/work/state.txt", "/tmp/state.txt"):
        print("PERSISTED" if os.path.exists(p) else "GONE", p)


def fork_bomb():
    while True:
        try:
            os.fork()
        except OSError:
            pass


def memory_bomb():
    chunks = []
    while True:
        chunks.append(bytearray(16 * 1024 * 1024))


def many_threads(count):
    # Each thread reserves a stack (8 MB of address space) but touches little of it.
    import threading
    release = threading.Event()
    started = []
    threads = [threading.Thread(target=lambda: (started.append(1), release.wait())) for _ in range(int(count))]
    for t in threads:
        t.start()
    release.set()
    for t in threads:
        t.join()
    print("THREADS OK", len(started))


def hold_memory(mb):
    # Touches MB megabytes and keeps them until killed or 3 s have passed.
    import time
    block = bytearray(int(mb) * 1024 * 1024)
    for i in range(0, len(block), 4096):
        block[i] = 1
    print("HOLDING", mb, flush=True)
    time.sleep(3)
    print("HELD")


def cpu_spin():
    while True:
        pass


def sleep(seconds):
    import time
    time.sleep(float(seconds))
    print("WOKE")


def flood():
    line = "x" * 1023 + "\n"
    while True:
        sys.stdout.write(line)


def giant_file():
    with open("/work/giant", "wb") as f:
        block = b"\0" * (1 << 20)
        for _ in range(1 << 14):
            f.write(block)
    print("WROTE GIANT")


def symlinks(secret):
    tries = []
    os.symlink(secret, "/work/ln-secret")
    tries.append("/work/ln-secret")
    os.symlink("/proc/1/root", "/work/ln-root")
    tries.append("/work/ln-root" + secret)
    os.symlink("/proc/self/root/../../..", "/work/ln-up")
    tries.append("/work/ln-up" + secret)
    read(*tries)


def setuid():
    import subprocess
    r = subprocess.run(["/usr/bin/su", "-c", "id -u"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    print("SU", r.returncode, r.stdout.strip(), r.stderr.strip()[:80])
    print("UID", os.getuid(), os.geteuid())
    st = os.statvfs("/usr/bin")
    print("NOSUID", bool(st.f_flag & os.ST_NOSUID))


def remove_system():
    import shutil
    for p in ("/usr/bin/true", "/etc/passwd", "/work"):
        try:
            if os.path.isdir(p):
                shutil.rmtree(p)
            else:
                os.remove(p)
            print("REMOVED", p)
        except OSError as e:
            print("DENIED", p, e.strerror)


def workloads():
    """Threads, subprocess, asyncio, tempfile, multiprocessing: the profile must allow them."""
    import asyncio
    import multiprocessing
    import subprocess
    import tempfile
    import threading

    results = []
    threads = [threading.Thread(target=lambda i=i: results.append(i * i)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [i * i for i in range(8)], results

    out = subprocess.run([sys.executable, "-c", "print(6*7)"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "42", out

    async def main():
        proc = await asyncio.create_subprocess_exec("/bin/echo", "async", stdout=asyncio.subprocess.PIPE)
        data, _ = await proc.communicate()
        await asyncio.gather(asyncio.sleep(0.01), asyncio.sleep(0.02))
        return data
    data = asyncio.run(main())
    assert data == b"async\n", data

    with tempfile.NamedTemporaryFile("w+", delete=True) as f:
        f.write("temp")
        f.flush()
        f.seek(0)
        assert f.read() == "temp"
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "x"), "w").write("y")

    with multiprocessing.Pool(2) as pool:
        assert pool.map(abs, [-1, -2, 3]) == [1, 2, 3]
    q = multiprocessing.Queue()
    p = multiprocessing.Process(target=q.put, args=("mp",))
    p.start()
    assert q.get(timeout=10) == "mp"
    p.join()
    print("WORKLOADS OK")


if __name__ == "__main__":
    globals()[sys.argv[1].replace("-", "_")](*sys.argv[2:])
