"""Helpers shared by the benchmarks: building Spindle, timing a command, MIDI files,
WAV files and the sound-server processes the live items start.

Every process a benchmark starts is recorded and stopped by its PID (Processes);
generated files live in temporary folders, never in the repository.
"""
import math
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RATE = 48000


def build_spindle(build_dir="build/bench", targets=("spindle-render",)):
    """Configures and builds `targets` in Release; returns the build folder."""
    build = os.path.join(ROOT, build_dir)
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target"] + list(targets), check=True, stdout=subprocess.DEVNULL)
    return build


def cost_arguments(parser):
    """The options the per-voice cost benchmarks share (mod_cost.py, mpe_cost.py)."""
    parser.add_argument("--voices", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quality", type=int, default=1)
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    return parser


def measure(command, check=True):
    """Runs `command`: (cpu s, wall s, peak RSS MiB, stdout). CPU (user+sys) comes from
    the rusage wait4 returns, at microsecond resolution; the peak RSS from /usr/bin/time
    around the command (a forked Python child's rusage would count the interpreter's
    pages from before exec)."""
    started = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as out, tempfile.NamedTemporaryFile(mode="r") as rss:
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name] + command, stdout=out,
                                stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        out.seek(0)
        stdout = out.read()
        peak_kib = int(rss.read().split()[-1] or 0)
    if check and proc.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(command), stdout))
    return usage.ru_utime + usage.ru_stime, wall, peak_kib / 1024.0, stdout


def line_of(stdout, label):
    """The text after `label` on the first line of `stdout` that starts with it."""
    return next((line.split(":", 1)[1].strip() for line in stdout.splitlines() if line.startswith(label)), "")


# ---- WAV and MIDI files ---------------------------------------------------

def tone(root_key, seconds, decay=1.5):
    """A decaying tone with a few harmonics, as int16 frames."""
    freq = 440.0 * 2 ** ((root_key - 69) / 12)
    frames = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        value = sum(math.sin(2 * math.pi * freq * h * t) / h for h in (1, 2, 3, 5))
        frames.append(int(9000 * value * math.exp(-decay * t)))
    return frames


def write_wav(path, frames, channels=1):
    """int16 frames (interleaved when channels > 1)."""
    with wave.open(path, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack("<%dh" % len(frames), *frames))


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def write_midi(path, events, end_tick=None):
    """events: (tick, order, bytes); at 480 ticks per beat, 120 bpm (960 ticks a second).
    Lower `order` sorts first at the same tick (note-offs before note-ons)."""
    events = sorted(events, key=lambda e: (e[0], e[1]))
    track, last = bytearray(), 0
    for tick, _, data in events:
        track += vlq(tick - last) + data
        last = tick
    track += vlq(max(0, (end_tick or last) - last)) + b"\xff\x2f\x00"
    with open(path, "wb") as out:
        out.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(track)) + track)


TICKS_PER_SECOND = 960


def held_notes(voices, end_tick, velocity=100):
    """`voices` notes held from tick 0 to `end_tick`, 128 keys a channel (events for write_midi)."""
    events = []
    for n in range(voices):
        channel, key = n // 128, n % 128
        events.append((0, 1, bytes([0x90 | channel, key, velocity])))
        events.append((end_tick, 0, bytes([0x80 | channel, key, 0])))
    return events


# ---- processes ------------------------------------------------------------

class Processes:
    """Starts processes and stops exactly those, by PID (TERM, then KILL)."""

    def __init__(self):
        self.started = []

    def start(self, command, out_path, env=None):
        with open(out_path, "w") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        self.started.append(proc)
        return proc

    @staticmethod
    def stop(proc, timeout=5.0):
        if proc.poll() is not None:
            return proc.returncode
        for sig in (signal.SIGTERM, signal.SIGTERM, signal.SIGKILL):
            proc.send_signal(sig)
            try:
                return proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                continue
        return None

    def stop_all(self):
        for proc in reversed(self.started):
            self.stop(proc)
        self.started = []


def wait_until(seconds, predicate, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def start_jackd(procs, name, folder):
    """A dummy-backend jackd at 48 kHz, period 256, real-time; returns the env to reach it."""
    env = dict(os.environ, JACK_DEFAULT_SERVER=name, JACK_NO_AUDIO_RESERVATION="1")
    procs.start(["jackd", "-n", name, "-R", "-P", "70", "-d", "dummy", "-r", str(RATE), "-p", "256"],
                os.path.join(folder, "jackd.out"), env)
    ok = wait_until(15, lambda: jack_answers(env))
    if not ok:
        raise RuntimeError("jackd %s did not start" % name)
    return env


def start_pipewire(procs, folder):
    """A private headless PipeWire (no D-Bus) at 48 kHz, quantum 256; returns the env to reach it."""
    runtime = os.path.join(folder, "pipewire-run")
    os.makedirs(runtime, exist_ok=True)
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, PIPEWIRE_RUNTIME_DIR=runtime, PIPEWIRE_QUANTUM="256/48000")
    env.pop("JACK_DEFAULT_SERVER", None)
    procs.start(["pipewire"], os.path.join(folder, "pipewire.out"), env)
    if not wait_until(15, lambda: subprocess.run(["pw-cli", "info", "0"], env=env, capture_output=True).returncode == 0):
        raise RuntimeError("pipewire did not start (see %s)" % os.path.join(folder, "pipewire.out"))
    for key, value in (("clock.force-quantum", "256"), ("clock.force-rate", str(RATE))):
        subprocess.run(["pw-metadata", "-n", "settings", "0", key, value], env=env, capture_output=True)
    return env


def pipewire_port_exists(env, port):
    try:
        result = subprocess.run(["pw-jack", "jack_lsp"], env=env, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return False
    return port in result.stdout.split("\n")


def jack_answers(env):
    """jack_lsp ran and the server answered (bounded: see jack_port_exists)."""
    try:
        return subprocess.run(["jack_lsp"], env=env, capture_output=True, timeout=5).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def jack_port_exists(env, port):
    # jack_lsp can hang in jack_client_close (JACK2's own lock left taken by its
    # notification thread, jackaudio/jack2#395): each look is bounded, then tried again.
    try:
        result = subprocess.run(["jack_lsp"], env=env, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return False
    return port in result.stdout.split("\n")
