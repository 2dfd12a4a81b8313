"""Pub/sub fan-out load for bench/harness.py: subscribers in a process of their own.

The subscriber process opens `subscribers` connections, subscribes each (SUBSCRIBE or PSUBSCRIBE),
reports that it is ready, then reads every socket through epoll, counting bytes (every message
frame has the same size), until each connection has received `messages` frames; it reports the
time the last byte arrived. A slow subscriber (optional) subscribes too and never reads.
"""

import multiprocessing
import select
import socket
import time


def resp(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else a.encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def message_frame(channel, payload, pattern=None):
    """The exact bytes of one message (or pmessage) frame in RESP2."""
    if pattern is None:
        return resp("message", channel, payload)
    return resp("pmessage", pattern, channel, payload)


def subscribe_frame_size(kind, name):
    return len(resp(kind, name)) - len(b"*2\r\n") + len(b"*3\r\n") + len(b":1\r\n")


def _subscriber_main(port, subscribers, pattern, channel, messages, frame_size, slow, ready,
                     done):
    kind, name = ("psubscribe", pattern) if pattern else ("subscribe", channel)
    socks = []
    for _ in range(subscribers):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(resp(kind, name))
        socks.append(s)
    slow_sock = None
    if slow:
        slow_sock = socket.socket()
        # A small receive buffer: the server's output for it grows soon.
        slow_sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow_sock.connect(("127.0.0.1", port))
        slow_sock.sendall(resp(kind, name))
    # Each confirmation is one frame of known size.
    confirm = subscribe_frame_size(kind, name)
    for s in socks:
        got = 0
        while got < confirm:
            got += len(s.recv(confirm - got))
    ready.send(True)
    want = messages * frame_size
    left = {s.fileno(): want for s in socks}
    by_fd = {s.fileno(): s for s in socks}
    ep = select.epoll()
    for s in socks:
        s.setblocking(False)
        ep.register(s.fileno(), select.EPOLLIN)
    last = time.time()
    while left:
        for fd, _ in ep.poll(10):
            try:
                data = by_fd[fd].recv(1 << 20)
            except BlockingIOError:
                continue
            if not data:
                raise RuntimeError("a subscriber was disconnected")
            left[fd] -= len(data)
            if left[fd] <= 0:
                del left[fd]
                ep.unregister(fd)
        last = time.time()
    done.send(last)
    for s in socks:
        s.close()
    if slow_sock:
        slow_sock.close()


def start_subscribers(port, subscribers, channel, payload, messages, pattern=None, slow=False):
    """Starts the subscriber process; returns (process, done pipe) once all are subscribed."""
    frame_size = len(message_frame(channel, payload, pattern))
    ready_r, ready_w = multiprocessing.Pipe(duplex=False)
    done_r, done_w = multiprocessing.Pipe(duplex=False)
    proc = multiprocessing.Process(
        target=_subscriber_main,
        args=(port, subscribers, pattern, channel, messages, frame_size, slow, ready_w, done_w),
        daemon=True)
    proc.start()
    if not ready_r.poll(120):
        proc.kill()
        raise RuntimeError("subscribers did not get ready")
    ready_r.recv()
    return proc, done_r
