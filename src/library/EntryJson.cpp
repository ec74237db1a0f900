#include "library/EntryJson.h"

#include <cstdio>
#include <cstdlib>

#include "library/JsonReader.h"

namespace spindle::library {

namespace {

void quote(std::string& out, std::string_view text) {
  out += '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += ch;
    }
  }
  out += '"';
}

void field(std::string& out, const char* name, std::string_view text) {
  out += ", \"";
  out += name;
  out += "\": ";
  quote(out, text);
}

void field(std::string& out, const char* name, long long number) {
  out += ", \"";
  out += name;
  out += "\": " + std::to_string(number);
}

void writeEntry(std::string& out, const Entry& e) {
  out += "{\"name\": ";
  quote(out, e.name);
  field(out, "format", e.format);
  field(out, "path", e.path);
  field(out, "root", e.root);
  field(out, "bytes", static_cast<long long>(e.bytes));
  field(out, "regions", e.regions);
  field(out, "samples", e.samples);
  field(out, "loKey", e.loKey);
  field(out, "hiKey", e.hiKey);
  out += ", \"controls\": [";
  for (std::size_t i = 0; i < e.controls.size(); ++i) {
    if (i) out += ", ";
    quote(out, e.controls[i]);
  }
  out += "]";
  field(out, "picture", e.picture);
  out += ", \"presets\": [";
  for (std::size_t i = 0; i < e.presets.size(); ++i) {
    out += i ? ", {\"bank\": " : "{\"bank\": ";
    out += std::to_string(e.presets[i].bank);
    field(out, "program", e.presets[i].program);
    field(out, "name", e.presets[i].name);
    out += "}";
  }
  out += "]";
  field(out, "error", e.error);
  field(out, "modified", static_cast<long long>(e.modified));
  field(out, "modifiedNs", static_cast<long long>(e.modifiedNs));
  out += "}";
}

}  // namespace

std::string toJson(const std::vector<Entry>& entries) {
  std::string out = "{\"version\": " + std::to_string(kJsonVersion) + ", \"entries\": [";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    writeEntry(out, entries[i]);
  }
  out += entries.empty() ? "]}\n" : "\n]}\n";
  return out;
}

}  // namespace spindle::library

namespace spindle::library {

namespace {

int integer(const detail::JsonValue& v) { return static_cast<int>(v.number); }

Entry readEntry(const detail::JsonValue& v) {
  Entry e;
  e.name = v["name"].text;
  e.format = v["format"].text;
  e.path = v["path"].text;
  e.root = v["root"].text;
  e.bytes = static_cast<std::uint64_t>(v["bytes"].number);
  e.regions = integer(v["regions"]);
  e.samples = integer(v["samples"]);
  e.loKey = integer(v["loKey"]);
  e.hiKey = integer(v["hiKey"]);
  for (const detail::JsonValue& c : v["controls"].items) e.controls.push_back(c.text);
  e.picture = v["picture"].text;
  for (const detail::JsonValue& p : v["presets"].items)
    e.presets.push_back({integer(p["bank"]), integer(p["program"]), p["name"].text});
  e.error = v["error"].text;
  e.modified = static_cast<std::int64_t>(v["modified"].number);
  e.modifiedNs = static_cast<std::int64_t>(v["modifiedNs"].number);
  return e;
}

}  // namespace

std::optional<std::vector<Entry>> fromJson(std::string_view text) {
  const auto document = detail::parseJson(text);
  if (!document || (*document)["entries"].kind != detail::JsonValue::Kind::Array) return std::nullopt;
  if ((*document)["version"].number != kJsonVersion) return std::nullopt;  // an older index's: read again
  std::vector<Entry> entries;
  for (const detail::JsonValue& v : (*document)["entries"].items)
    if (v.kind == detail::JsonValue::Kind::Object && !v["path"].text.empty()) entries.push_back(readEntry(v));
  return entries;
}

}  // namespace spindle::library
