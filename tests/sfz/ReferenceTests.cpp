// The opcode table's ranges against the SFZ format reference itself (syntax.yml),
// read at test time with a small line-based reader (no YAML library).
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "catch.h"
#include "sfz/OpcodeTable.h"

namespace reference_tests {

namespace sfz = spindle::sfz;

namespace {

struct RefOpcode {
  std::string version;
  std::optional<double> min, max;
};

struct Entry {
  size_t indent;  // column of the "- name:" dash
  std::string name;
  std::string block;  // last key seen at indent + 2 ("value", "index", "alias"...)
};

std::string quotedValue(const std::string& line) {
  const size_t a = line.find('"'), b = line.rfind('"');
  return a == std::string::npos || b <= a ? std::string() : line.substr(a + 1, b - a - 1);
}

std::optional<double> number(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    return used == text.size() ? std::optional<double>(v) : std::nullopt;
  } catch (...) {
    return std::nullopt;
  }
}

void readKey(std::vector<Entry>& stack, std::map<std::string, std::vector<RefOpcode>>& out,
             size_t indent, const std::string& key, const std::string& rest) {
  while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
  if (stack.empty()) return;
  Entry& top = stack.back();
  if (indent == top.indent + 2) top.block = key;
  auto& refs = out[top.name];
  if (refs.empty()) refs.emplace_back();
  if (key == "version" && indent == top.indent + 2) refs.back().version = quotedValue(rest);
  if ((key == "min" || key == "max") && top.block == "value" && indent == top.indent + 4)
    (key == "min" ? refs.back().min : refs.back().max) = number(rest);
}

// name -> every definition in the file (an opcode may be listed more than once).
std::map<std::string, std::vector<RefOpcode>> readReference(const std::filesystem::path& file) {
  std::map<std::string, std::vector<RefOpcode>> out;
  std::vector<Entry> stack;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line[indent] == '#') continue;
    if (line.compare(indent, 8, "- name: ") == 0) {
      while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
      stack.push_back(Entry{indent, quotedValue(line), std::string()});
      out[stack.back().name].emplace_back();
      continue;
    }
    const size_t colon = line.find(':', indent);
    if (colon == std::string::npos) continue;
    const size_t valueStart = line.find_first_not_of(' ', colon + 1);
    readKey(stack, out, indent, line.substr(indent, colon - indent),
            valueStart == std::string::npos ? std::string() : line.substr(valueStart));
  }
  return out;
}

// The definition with a numeric range, preferring the SFZ v1 one.
const RefOpcode* pick(const std::vector<RefOpcode>& refs) {
  const RefOpcode* best = nullptr;
  for (const RefOpcode& r : refs) {
    if (!r.min || !r.max) continue;
    if (!best || (r.version == "SFZ v1" && best->version != "SFZ v1")) best = &r;
  }
  return best;
}

}  // namespace

TEST_CASE("opcode table ranges agree with the SFZ reference (syntax.yml)", "[sfz][reference][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-syntax/syntax.yml");
  const auto reference = readReference(fixtures / "sfz-syntax" / "syntax.yml");
  REQUIRE(reference.size() > 400);
  int v1Checked = 0, checked = 0;
  std::vector<sfz::OpcodeSpec> specs(sfz::opcodeTable().begin(), sfz::opcodeTable().end());
  specs.insert(specs.end(), sfz::modOpcodeTable().begin(), sfz::modOpcodeTable().end());
  specs.insert(specs.end(), sfz::synthOpcodeTable().begin(), sfz::synthOpcodeTable().end());
  for (const sfz::OpcodeSpec& spec : specs) {
    const auto it = reference.find(std::string(spec.name));
    if (it == reference.end()) continue;
    const RefOpcode* ref = pick(it->second);
    if (!ref) continue;
    INFO("opcode " << spec.name);
    CHECK(spec.min == *ref->min);
    CHECK(spec.max == *ref->max);
    ++checked;
    if (ref->version == "SFZ v1") ++v1Checked;
  }
  // Every v1 opcode with a numeric range that the table implements is compared.
  int v1Implemented = 0;
  for (const auto& [name, refs] : reference) {
    for (const RefOpcode& r : refs) {
      if (r.version != "SFZ v1" || !r.min || !r.max) continue;
      if (sfz::findOpcode(name)) ++v1Implemented;
    }
  }
  CHECK(v1Checked == v1Implemented);
  CHECK(v1Checked >= 90);
  CHECK(checked >= v1Checked + 18);  // the vel2* opcodes and the ARIA amplitude
}

}  // namespace reference_tests
