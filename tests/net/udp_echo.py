#!/usr/bin/env python3
"""A UDP echo for timing a link (netdelay_link.sh), where ping may not be installed.

  udp_echo.py serve PORT                       echo every datagram to its sender until killed;
                                               prints "ready: udp port PORT" once bound
  udp_echo.py probe HOST PORT COUNT INTERVAL_MS
      COUNT numbered datagrams, one every INTERVAL_MS (0: back to back), to HOST's echo.
      Prints one line: sent, received, out of order (a reply numbered below one already
      received), and the round trip's mean, min and max in milliseconds.
"""
import select
import socket
import struct
import sys
import time

HEADER = struct.Struct("!IQ")  # number, send time (ns, CLOCK_MONOTONIC)


def udp_socket():
    """A UDP socket whose receive buffer holds a whole burst (packets the link held back
    leave together)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, 33, 4 << 20)  # SO_RCVBUFFORCE (root)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    return sock


def serve(port):
    sock = udp_socket()
    sock.bind(("0.0.0.0", port))
    print("ready: udp port %d" % port, flush=True)
    while True:
        data, sender = sock.recvfrom(2048)
        sock.sendto(data, sender)


class Replies:
    def __init__(self):
        self.trips, self.highest, self.out_of_order = {}, -1, 0

    def drain(self, sock, timeout):
        while select.select([sock], [], [], timeout)[0]:
            data = sock.recv(2048)
            now = time.monotonic_ns()
            number, sent = HEADER.unpack_from(data)
            if number < self.highest:
                self.out_of_order += 1
            self.highest = max(self.highest, number)
            self.trips.setdefault(number, (now - sent) / 1e6)
            timeout = 0


def probe(host, port, count, interval_ms):
    sock = udp_socket()
    sock.connect((host, port))
    replies = Replies()
    start = time.monotonic_ns()
    for number in range(count):
        due = start + int(number * interval_ms * 1e6)
        while time.monotonic_ns() < due:
            replies.drain(sock, max(0.0, (due - time.monotonic_ns()) / 1e9))
        sock.send(HEADER.pack(number, time.monotonic_ns()) + bytes(32))
        replies.drain(sock, 0)
    deadline = time.monotonic() + 1.0
    while len(replies.trips) < count and time.monotonic() < deadline:
        replies.drain(sock, 0.05)
    trips = list(replies.trips.values()) or [0.0]
    p90 = sorted(trips)[(len(trips) * 9) // 10 - 1 if len(trips) >= 10 else -1]  # 9 in 10 take this long or less
    print("sent %d received %d out_of_order %d rtt_ms mean %.3f min %.3f max %.3f p90 %.3f" % (
        count, len(replies.trips), replies.out_of_order, sum(trips) / len(trips), min(trips), max(trips), p90))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    elif len(sys.argv) == 6 and sys.argv[1] == "probe":
        probe(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(__doc__)
