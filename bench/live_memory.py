#!/usr/bin/env python3
"""Benchmark item 8 (live memory): what `spindle --headless` holds on a real jackd
(dummy backend, -R, period 256, 48 kHz), side by side with sfizz_render loading the
same library.

  1. After loading, against sfizz_render (one 1 s note, so that it loads everything):
     (a) a generated library of 3,000 samples: 88 keys x 12 velocity layers x 2-3 round
         robins, 4 s of stereo 16-bit noise each (2.2 GB);
     (b) a generated library of 20,000 short samples: 1 s of stereo 16-bit noise each.
     Spindle's RSS is read from /proc once its ports appear; its load time is the time to
     that point. Every load finds the library in the page cache (it is read whole first). sfizz_render's peak RSS and wall time come from /usr/bin/time.
  2. The dense FLAC piano (bench/DensePiano.h: 240 files, 62.5 M frames) and its 45 s
     song played live through --midi-device (a FIFO) into spindle --headless: peak RSS
     (VmHWM) and stream underruns, on jackd and on PipeWire.

RSS counts what a JACK client maps of the server's shared memory: libjack locks the
server's whole segment into every client (common/JackShmMem.h: mlock on attach; 104 MB on
a default jackd, whatever the client: jack_metro holds the same), so each row also gives
that part (RssShmem) and Spindle's own memory without it, the figure comparable to
sfizz_render, which is no JACK client. The same libraries are then loaded by
`spindle --headless --backend pipewire` on a private headless PipeWire (quantum 256,
48 kHz), whose ports are buffers of their own, not one shared segment: its RSS is the
whole of what Spindle holds there.

    bench/live_memory.py [--build DIR] [--quick] [--library-dir DIR] [--sfizz PATH]

Libraries are written once into --library-dir (default /tmp/spindle-live-memory) and
reused. sfizz_render is found through --sfizz or $SPINDLE_SFIZZ_RENDER (default
../shared/reference/sfizz_render); its rows are skipped when it is absent.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (ROOT, Processes, build_spindle, jack_port_exists, measure, pipewire_port_exists,  # noqa: E402
                    start_jackd, start_pipewire, wait_until, write_midi)

RATE = 48000


def wav_header(frames):
    data = frames * 4
    return (b"RIFF" + (36 + data).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
            + (1).to_bytes(2, "little") + (2).to_bytes(2, "little") + RATE.to_bytes(4, "little")
            + (RATE * 4).to_bytes(4, "little") + (4).to_bytes(2, "little") + (16).to_bytes(2, "little")
            + b"data" + data.to_bytes(4, "little"))


def write_wav(path, seconds):
    if os.path.exists(path):
        return
    frames = int(seconds * RATE)
    with open(path, "wb") as out:
        out.write(wav_header(frames))
        out.write(os.urandom(frames * 4))


def layered_library(folder, samples, seconds):
    """88 keys x 12 velocity layers, 3 round robins (2 on every eighth key and layer), until `samples`."""
    os.makedirs(folder, exist_ok=True)
    regions = []
    for key in range(21, 109):
        for layer in range(12):
            robins = 2 if (key * 12 + layer) % 8 == 0 else 3
            for robin in range(robins):
                if len(regions) >= samples:
                    break
                name = "k%d_v%d_r%d.wav" % (key, layer, robin)
                write_wav(os.path.join(folder, name), seconds)
                regions.append("<region> sample=%s key=%d lovel=%d hivel=%d seq_length=%d seq_position=%d"
                               % (name, key, layer * 10 + 1, 127 if layer == 11 else layer * 10 + 10, robins,
                                  robin + 1))
    with open(os.path.join(folder, "lib.sfz"), "w") as sfz:
        sfz.write("\n".join(regions) + "\n")
    return os.path.join(folder, "lib.sfz"), len(regions)


def short_library(folder, samples, seconds):
    """`samples` short files, 128 keys x up to 127 velocities."""
    os.makedirs(folder, exist_ok=True)
    regions = []
    for i in range(samples):
        name = "s%05d.wav" % i
        write_wav(os.path.join(folder, name), seconds)
        velocity = (i // 128) % 127 + 1
        regions.append("<region> sample=%s key=%d lovel=%d hivel=%d" % (name, i % 128, velocity, velocity))
    with open(os.path.join(folder, "lib.sfz"), "w") as sfz:
        sfz.write("\n".join(regions) + "\n")
    return os.path.join(folder, "lib.sfz"), samples


def warm(sfz):
    """Reads every file of the library whole, so that every load finds it in the page cache."""
    folder = os.path.dirname(sfz)
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as f:
            while f.read(1 << 20):
                pass


def memory_of(pid):
    """(RSS, RssShmem, VmHWM) in MiB from /proc/PID/status."""
    fields = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssShmem", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024.0
    return fields.get("VmRSS", 0.0), fields.get("RssShmem", 0.0), fields.get("VmHWM", 0.0)


def spindle_loaded(build, sfz, folder, procs, env, backend="jack"):
    """Starts spindle --headless on `sfz`; (seconds to its ports, RSS, shared MiB) once they appear."""
    name = "smem%d" % os.getpid()
    exists = jack_port_exists if backend == "jack" else pipewire_port_exists
    started = time.monotonic()
    proc = procs.start([os.path.join(build, "src", "app", "spindle"), "--headless", "--instrument", sfz,
                        "--name", name, "--osc-port", "0", "--backend", backend],
                       os.path.join(folder, "spindle.out"), env)
    if not wait_until(600, lambda: exists(env, name + ":out_L"), step=0.05):
        raise RuntimeError("spindle did not start (see %s)" % os.path.join(folder, "spindle.out"))
    seconds = time.monotonic() - started
    time.sleep(1.0)
    rss, shared, _ = memory_of(proc.pid)
    Processes.stop(proc)
    return seconds, rss, shared


def sfizz_loaded(sfizz, sfz, folder):
    """sfizz_render on `sfz` with one 1 s note: (wall s, peak RSS MiB)."""
    song = os.path.join(folder, "one.mid")
    write_midi(song, [(0, 1, bytes([0x90, 60, 100])), (960, 0, bytes([0x80, 60, 0]))], end_tick=1920)
    _, wall, rss, _ = measure([sfizz, "--sfz", sfz, "--midi", song, "--wav", os.path.join(folder, "sfizz.wav"),
                               "-s", str(RATE), "-q", "2"])
    return wall, rss


def write_piano(build, folder, seconds):
    """Writes the dense FLAC piano and its song into folder/piano (once: both servers play it)."""
    piano = os.path.join(folder, "piano")
    subprocess.run([os.path.join(build, "bench", "spindle-bench-piano"), piano, "--no-sf2", "--seconds",
                    str(seconds)], check=True, stdout=subprocess.DEVNULL)
    return piano


def dense_piano_live(build, folder, piano, seconds, procs, env, backend="jack"):
    """The dense FLAC piano's song live: (peak RSS MiB, shared MiB at the end, underruns)."""
    fifo = os.path.join(folder, "midi.fifo")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    name = "spiano%d" % os.getpid()
    out = os.path.join(folder, "piano.out")
    proc = procs.start([os.path.join(build, "src", "app", "spindle"), "--headless", "--instrument",
                        os.path.join(piano, "piano.sfz"), "--name", name, "--osc-port", "0", "--midi-device", fifo,
                        "--backend", backend], out, env)
    exists = jack_port_exists if backend == "jack" else pipewire_port_exists
    if not wait_until(120, lambda: exists(env, name + ":out_L"), step=0.05):
        raise RuntimeError("spindle did not start (see %s)" % out)
    if backend == "pipewire":  # with no session manager, a node nothing is linked to is never scheduled
        procs.start(["pw-jack", "jack_rec", "-f", os.path.join(folder, "piano-pipewire.wav"), "-d",
                     str(int(seconds) + 10), name + ":out_L", name + ":out_R"], os.path.join(folder, "rec.out"), env)
        time.sleep(1.0)
    events = [line.split() for line in open(os.path.join(piano, "song.events"))]
    with open(fifo, "wb", buffering=0) as midi:
        start = time.monotonic()
        for at, status, d1, d2 in events:
            delay = start + float(at) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            midi.write(bytes([int(status), int(d1), int(d2)]))
        time.sleep(3.0)
    _, shared, peak = memory_of(proc.pid)
    Processes.stop(proc)
    text = open(out).read()
    underruns = next((line.split(":")[1].strip() for line in text.splitlines() if line.startswith("stream underruns")),
                     "?")
    notes = next((int(line.split(",")[1].split()[0]) for line in text.splitlines() if line.startswith("midi:")), 0)
    if notes == 0:
        raise RuntimeError("the piano's song played no note through %s (see %s)" % (backend, out))
    return peak, shared, underruns


def run(build, folder, quick=False, sfizz=None):
    sizes = {"layered": 300 if quick else 3000, "short": 2000 if quick else 20000, "piano": 4.0 if quick else 45.0}
    layered = layered_library(os.path.join(folder, "layered%d" % sizes["layered"]), sizes["layered"], 4.0)
    short = short_library(os.path.join(folder, "short%d" % sizes["short"]), sizes["short"], 1.0)
    libraries = (("%d layered samples of 4 s" % layered[1], layered[0]), ("%d short samples of 1 s" % short[1], short[0]))
    result = {"rows": [{"library": label} for label, _ in libraries]}
    for _, sfz in libraries:
        warm(sfz)
    piano = write_piano(build, folder, sizes["piano"])
    procs = Processes()
    try:
        env = start_jackd(procs, "spindle-memory-%d" % os.getpid(), folder)
        for row, (_, sfz) in zip(result["rows"], libraries):
            seconds, rss, shared = spindle_loaded(build, sfz, folder, procs, env)
            row.update({"spindle_s": seconds, "spindle_rss": rss, "jack_shared": shared, "spindle_own": rss - shared})
            if sfizz:
                row["sfizz_s"], row["sfizz_rss"] = sfizz_loaded(sfizz, sfz, folder)
        peak, shared, underruns = dense_piano_live(build, folder, piano, sizes["piano"], procs, env)
        result["piano"] = {"seconds": sizes["piano"], "peak": peak, "jack_shared": shared, "own": peak - shared,
                           "underruns": underruns}
    finally:
        procs.stop_all()
    if not shutil.which("pipewire"):
        return result  # the PipeWire columns say "-"
    try:
        env = start_pipewire(procs, folder)
        for row, (_, sfz) in zip(result["rows"], libraries):
            row["pipewire_s"], row["pipewire_rss"], _ = spindle_loaded(build, sfz, folder, procs, env, "pipewire")
        peak, _, underruns = dense_piano_live(build, folder, piano, sizes["piano"], procs, env, "pipewire")
        result["piano_pipewire"] = {"peak": peak, "underruns": underruns}
    finally:
        procs.stop_all()
    return result


def markdown(result):
    lines = ["`spindle --headless` (defaults: preload 4096 frames, 64 MiB block cache) on `jackd -R -d dummy -r 48000 "
             "-p 256` and on a headless PipeWire (`--backend pipewire`, quantum 256), against `sfizz_render` loading "
             "the same library (one 1 s note). RSS in MiB; on jackd, Spindle's own = RSS minus the JACK server's shared "
             "memory every client of it holds\n",
             "| library | jackd: load s | RSS | of it JACK's | Spindle's own | PipeWire: load s | RSS | sfizz_render s "
             "| RSS | jackd own / sfizz | PipeWire RSS / sfizz |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        sfizz_rss = r.get("sfizz_rss")
        ratio = lambda mib: "%.2f" % (mib / sfizz_rss) if sfizz_rss else "-"
        pipewire_rss = r.get("pipewire_rss")
        lines.append("| %s | %.2f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s | %s |" % (
            r["library"], r["spindle_s"], r["spindle_rss"], r["jack_shared"], r["spindle_own"],
            "%.2f" % r["pipewire_s"] if pipewire_rss else "-", "%.1f" % pipewire_rss if pipewire_rss else "-",
            "%.2f" % r["sfizz_s"] if sfizz_rss else "-", "%.1f" % sfizz_rss if sfizz_rss else "-",
            ratio(r["spindle_own"]), ratio(pipewire_rss) if pipewire_rss else "-"))
    p = result["piano"]
    lines.append("\nThe dense FLAC piano's %.0f s song played live: peak RSS %.1f MiB, of it JACK's %.1f: Spindle's own "
                 "%.1f MiB (%.0f MB); stream underruns %s." % (p["seconds"], p["peak"], p["jack_shared"], p["own"],
                                                               p["own"] * 1.048576, p["underruns"]))
    pw = result.get("piano_pipewire")
    if pw:
        lines.append("On PipeWire: peak RSS %.1f MiB (%.0f MB); stream underruns %s." % (
            pw["peak"], pw["peak"] * 1.048576, pw["underruns"]))
    return "\n".join(lines)


def default_sfizz():
    """sfizz_render from $SPINDLE_SFIZZ_RENDER or ../shared/reference, or None."""
    path = os.environ.get("SPINDLE_SFIZZ_RENDER", os.path.join(ROOT, "..", "shared", "reference", "sfizz_render"))
    return path if os.access(path, os.X_OK) else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", help="a build folder with spindle and spindle-bench-piano")
    parser.add_argument("--quick", action="store_true", help="300 and 2,000 samples, a 4 s song")
    parser.add_argument("--library-dir", default=os.path.join(tempfile.gettempdir(), "spindle-live-memory"))
    parser.add_argument("--sfizz", help="sfizz_render (default $SPINDLE_SFIZZ_RENDER or ../shared/reference)")
    args = parser.parse_args()
    build = args.build or build_spindle(targets=("spindle", "spindle-bench-piano"))
    os.makedirs(args.library_dir, exist_ok=True)
    sfizz = args.sfizz if args.sfizz and os.access(args.sfizz, os.X_OK) else default_sfizz()
    print(markdown(run(build, args.library_dir, args.quick, sfizz)))


if __name__ == "__main__":
    main()
