// spindle-xwd2png: converts an X window dump (xwd, ZPixmap, 24/32 bits per pixel
// TrueColor, as Xvfb writes them) to PNG, and says whether the picture is blank.
//
//   spindle-xwd2png [--crop=X,Y,W,H] IN.xwd OUT.png [RRGGBB]
//   --crop: only that rectangle of the window (clipped to it) is written and judged.
//   exit 0: written and not blank; 1: unreadable input or output; 3: blank (one colour,
//   or hardly any variation: a window that never painted). With a colour, it also
//   prints "#RRGGBB: N pixels", the pixels of exactly that colour.
//
// The XWD header is 25 big-endian 32-bit fields, then the window name (header_size
// covers both), then ncolors 12-byte colour entries, then the rows of pixels in the
// byte order the header gives.
#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QRect>
#include <QSet>
#include <QStringList>
#include <cmath>
#include <cstdio>

namespace {

enum Field {
  HeaderSize = 0, FileVersion = 1, PixmapFormat = 2, Width = 4, Height = 5, ByteOrder = 7,
  BitsPerPixel = 11, BytesPerLine = 12, RedMask = 14, GreenMask = 15, BlueMask = 16, NColors = 19,
  kFields = 25
};
constexpr int kZPixmap = 2, kColourEntryBytes = 12;

uint32_t bigEndian(const uchar* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

// The 8-bit value of `mask`'s bits in `pixel`.
int channel(uint32_t pixel, uint32_t mask) {
  if (mask == 0) return 0;
  int shift = 0;
  while (!((mask >> shift) & 1U)) ++shift;
  const uint32_t max = mask >> shift;
  return static_cast<int>(((pixel & mask) >> shift) * 255U / max);
}

uint32_t readPixel(const uchar* p, int bytes, bool lsbFirst) {
  uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    const int index = lsbFirst ? i : bytes - 1 - i;
    value |= uint32_t{p[index]} << (8 * i);
  }
  return value;
}

QImage fail(QString& error, const char* why) {
  error = QString::fromLatin1(why);
  return {};
}

QImage decode(const QByteArray& file, QString& error) {
  const auto* data = reinterpret_cast<const uchar*>(file.constData());
  if (file.size() < kFields * 4) return fail(error, "too short for an XWD header");
  uint32_t h[kFields];
  for (int i = 0; i < kFields; ++i) h[i] = bigEndian(data + 4 * i);
  if (h[FileVersion] != 7 || h[PixmapFormat] != kZPixmap) return fail(error, "not a version 7 ZPixmap XWD file");
  if (h[BitsPerPixel] != 32 && h[BitsPerPixel] != 24) return fail(error, "only 24 and 32 bits per pixel are read");
  const qint64 pixels = qint64{h[HeaderSize]} + qint64{h[NColors]} * kColourEntryBytes;
  const int width = static_cast<int>(h[Width]), height = static_cast<int>(h[Height]);
  if (pixels + qint64{h[BytesPerLine]} * height > file.size()) return fail(error, "truncated pixel data");
  QImage image(width, height, QImage::Format_RGB32);
  const int bytes = static_cast<int>(h[BitsPerPixel] / 8);
  for (int y = 0; y < height; ++y) {
    const uchar* row = data + pixels + qint64{h[BytesPerLine]} * y;
    auto* out = reinterpret_cast<QRgb*>(image.scanLine(y));
    for (int x = 0; x < width; ++x) {
      const uint32_t p = readPixel(row + x * bytes, bytes, h[ByteOrder] == 0);
      out[x] = qRgb(channel(p, h[RedMask]), channel(p, h[GreenMask]), channel(p, h[BlueMask]));
    }
  }
  return image;
}

// Blank: fewer than 16 colours, or a grey-level standard deviation under 4.
bool blank(const QImage& image, double& deviation, int& colours) {
  QSet<QRgb> seen;
  double sum = 0.0, sumSquares = 0.0;
  const double n = static_cast<double>(image.width()) * image.height();
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      if (seen.size() < 4096) seen.insert(p);
      const double grey = qGray(p);
      sum += grey;
      sumSquares += grey * grey;
    }
  const double mean = sum / n;
  deviation = std::sqrt(std::max(0.0, sumSquares / n - mean * mean));
  colours = static_cast<int>(seen.size());
  return colours < 16 || deviation < 4.0;
}

int count(const QImage& image, QRgb colour) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += (image.pixel(x, y) & 0xFFFFFFU) == (colour & 0xFFFFFFU) ? 1 : 0;
  return n;
}

// "--crop=X,Y,W,H" as argv[1]: the rectangle, and the argument taken out of argv.
QRect takeCrop(int& argc, char** argv) {
  if (argc < 2 || !QString::fromLatin1(argv[1]).startsWith(QStringLiteral("--crop="))) return {};
  const QStringList n = QString::fromLatin1(argv[1]).mid(7).split(QLatin1Char(','));
  for (int i = 1; i < argc; ++i) argv[i] = argv[i + 1];  // argv[argc] is null
  --argc;
  return n.size() == 4 ? QRect(n[0].toInt(), n[1].toInt(), n[2].toInt(), n[3].toInt()) : QRect(0, 0, -1, -1);
}

}  // namespace

int main(int argc, char** argv) {
  const QRect crop = takeCrop(argc, argv);
  QCoreApplication app(argc, argv);
  bool colourOk = true;
  const QRgb colour = argc == 4 ? QString::fromLatin1(argv[3]).toUInt(&colourOk, 16) : 0;
  if ((argc != 3 && argc != 4) || !colourOk) {
    std::fprintf(stderr, "usage: spindle-xwd2png [--crop=X,Y,W,H] IN.xwd OUT.png [RRGGBB]\n");
    return 1;
  }
  QFile in(QString::fromLocal8Bit(argv[1]));
  QString error;
  QImage image = in.open(QIODevice::ReadOnly) ? decode(in.readAll(), error) : fail(error, "cannot read it");
  if (!image.isNull() && !crop.isNull()) image = crop.isValid() ? image.copy(crop & image.rect()) : fail(error, "--crop takes X,Y,W,H");
  if (image.isNull()) {
    std::fprintf(stderr, "spindle-xwd2png: %s: %s\n", argv[1], qPrintable(error));
    return 1;
  }
  if (!image.save(QString::fromLocal8Bit(argv[2]), "PNG")) {
    std::fprintf(stderr, "spindle-xwd2png: cannot write %s\n", argv[2]);
    return 1;
  }
  double deviation = 0.0;
  int colours = 0;
  const bool isBlank = blank(image, deviation, colours);
  std::printf("%s: %dx%d, %s%d colours, grey-level deviation %.1f: %s\n", argv[2], image.width(), image.height(),
              colours >= 4096 ? ">=" : "", colours, deviation, isBlank ? "BLANK" : "not blank");
  if (argc == 4) std::printf("#%s: %d pixels\n", argv[3], count(image, colour));
  return isBlank ? 3 : 0;
}
