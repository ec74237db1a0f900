"""Archives: Hydrogen .h2drumkit tars and .multisample zips (and a .dslibrary zip, which
Spindle does not read). Links and names that leave the kit aim at OUT/escaped, which the
suite checks is never created."""
import io
import os
import struct
import tarfile
import zipfile
import zlib

from corpus_bytes import DRUMKIT, MULTISAMPLE, DSPRESET, wav


def tar(entries):
    """entries: (name, bytes) for files, (name, ("sym"|"hard", target)) for links."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
        for name, content in entries:
            info = tarfile.TarInfo(name)
            if isinstance(content, tuple):
                info.type = tarfile.SYMTYPE if content[0] == "sym" else tarfile.LNKTYPE
                info.linkname = content[1]
                t.addfile(info)
            else:
                info.size = len(content)
                t.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def zip_bytes(entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, content in entries:
            z.writestr(name, content)
    return buf.getvalue()


def zip_claiming(data, entry_count=None, entry_size=None):
    """Rewrites a zip's end record's entry counts, or every header's uncompressed size."""
    data = bytearray(data)
    if entry_count is not None:
        end = data.rindex(b"PK\x05\x06")
        struct.pack_into("<HH", data, end + 8, entry_count, entry_count)
    if entry_size is not None:
        for magic, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
            at = data.find(magic)
            while at >= 0:
                struct.pack_into("<I", data, at + offset, entry_size)
                at = data.find(magic, at + 4)
    return bytes(data)


def kit_cases(c, escaped):
    xml, sine = DRUMKIT.encode(), wav()
    good = [("Corpus/drumkit.xml", xml), ("Corpus/sine.wav", sine)]
    for name, entries, expect, names in [
            ("ok", good, "regions=2", "-"),
            ("absolute-symlink", good + [("Corpus/out", ("sym", escaped)), ("Corpus/out/x.wav", sine)], "error",
             "entry 'Corpus/out' is a symbolic link to the absolute path"),
            ("symlink-out", good + [("Corpus/up", ("sym", "../../..")), ("Corpus/up/escaped", sine)], "error",
             "entry 'Corpus/up' is a symbolic link to '../../..', outside the kit folder"),
            ("hardlink-out", good + [("Corpus/h.wav", ("hard", "../../escaped"))], "error",
             "entry 'Corpus/h.wav' is a hard link to '../../escaped', outside the kit folder"),
            ("hardlink-absolute", good + [("Corpus/h.wav", ("hard", escaped))], "error",
             "entry 'Corpus/h.wav' is a hard link to the absolute path"),
            ("dotdot-name", good + [("Corpus/../../escaped", sine)], "error",
             "entry 'Corpus/../../escaped' lies outside the kit folder"),
            ("absolute-name", good + [(escaped, sine)], "error", "entry '%s' has an absolute path" % escaped),
            ("no-drumkit-xml", [("Corpus/sine.wav", sine)], "error", "drumkit.xml")]:
        c.case("instrument", "archives/%s.h2drumkit" % name, tar(entries), expect, names)
    whole = tar(good)
    c.case("instrument", "archives/cut.h2drumkit", whole[:len(whole) // 2], "error",
           "truncated gzip input")
    c.case("instrument", "archives/gzip-junk.h2drumkit", b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4, "error",
           "gzip decompression failed")


def zip64_claiming(entries, name, declared):
    """A stored zip whose entry `name` declares `declared` bytes (a zip64 size) in its
    local and central headers; the other entries are plain."""
    local, central = b"", b""
    for entry, data in entries:
        crc, size, raw = zlib.crc32(data), len(data), entry.encode()
        big = entry == name
        sizes = struct.pack("<II", 0xFFFFFFFF, 0xFFFFFFFF) if big else struct.pack("<II", size, size)
        extra = struct.pack("<HHQQ", 1, 16, declared, size) if big else b""
        fields = struct.pack("<HHHHHI", 45, 0, 0, 0, 0x21, crc) + sizes + struct.pack("<HH", len(raw), len(extra))
        central += b"PK\x01\x02" + struct.pack("<H", 45) + fields + struct.pack("<HHHII", 0, 0, 0, 0, len(local))
        central += raw + extra
        local += b"PK\x03\x04" + fields + raw + extra + data
    end = struct.pack("<HHHHIIH", 0, 0, len(entries), len(entries), len(central), len(local), 0)
    return local + central + b"PK\x05\x06" + end


def zip_symlink(entries, name, target):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for entry, content in entries:
            z.writestr(entry, content)
        link = zipfile.ZipInfo(name)
        link.create_system = 3  # Unix: the mode below says symbolic link
        link.external_attr = (0o120777 << 16)
        z.writestr(link, target)
    return buf.getvalue()


def zip_cases(c, escaped):
    xml, sine = MULTISAMPLE.encode(), wav()
    good = zip_bytes([("multisample.xml", xml), ("sine.wav", sine)])
    c.case("instrument", "archives/ok.multisample", good, "regions=2")
    many = zip_bytes([("multisample.xml", xml), ("sine.wav", sine)] + [("e%d" % i, b"") for i in range(10000)])
    for name, data, names in [
            ("dotdot-name", zip_bytes([("multisample.xml", xml), ("sine.wav", sine), ("../../escaped", sine)]),
             "entry '../../escaped' lies outside the instrument's folder"),
            ("absolute-name", zip_bytes([("multisample.xml", xml), (escaped, sine)]),
             "entry '%s' has an absolute path" % escaped),
            ("10002-entries", many, "has more than 10000 entries"),
            ("entry-of-4gib", zip_claiming(good, entry_size=0xFFFFFFF0), "unpacks to more than 2 GiB"),
            ("entry-of-10gb", zip64_claiming([("multisample.xml", xml), ("sine.wav", sine)], "sine.wav", 10 ** 10),
             "unpacks to more than 2 GiB"),
            ("symlink-out", zip_symlink([("multisample.xml", xml)], "sine.wav", "../../escaped"),
             "entry 'sine.wav' is a symbolic link to '../../escaped', outside the instrument's folder"),
            ("absolute-symlink", zip_symlink([("multisample.xml", xml)], "sine.wav", escaped),
             "entry 'sine.wav' is a symbolic link to the absolute path"),
            ("cut-in-sample", good[:len(good) // 2], "Truncated ZIP file data")]:
        c.case("instrument", "archives/%s.multisample" % name, data, "error", names)
    # The end record's counts and the central directory are not what the unpacking reads:
    # every entry is whole, so the instrument loads.
    c.case("instrument", "archives/end-record-claims-65535.multisample", zip_claiming(good, entry_count=65535),
           "regions=2")
    c.case("instrument", "archives/end-record-cut.multisample", good[:len(good) - 10], "regions=2")
    c.case("instrument", "archives/preset.dslibrary", zip_bytes([("p.dspreset", DSPRESET), ("sine.wav", sine)]),
           "error", "not an instrument Spindle can play")


def cases(c):
    escaped = os.path.join(c.out, "escaped")
    kit_cases(c, escaped)
    zip_cases(c, escaped)
