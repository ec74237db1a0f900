#pragma once
// Every opcode entry of the SFZ format reference (syntax.yml), modulation sub-entries
// included, with its version and a value to write: a small line-based reader for the
// coverage test (no YAML library).
//
// An opcode entry is a "- name:" item of an `opcodes:` list, or of a list under a
// `modulation:` block (midi_cc, velocity...). Aliases, targets, options, headers and
// categories are not opcode entries. An entry without its own `version` has the version
// of the entry it is nested in (delay_ccN is SFZ v1 like delay).
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace spindle::test {

struct SyntaxOpcode {
  std::string name;     // as written, placeholders N, X, Y, NNN, '*' kept
  std::string version;  // "SFZ v1", "SFZ v2", "ARIA", ...
  std::string category; // top-level category ("Instrument Settings", "Curves", "Effects"...)
  std::string defaultValue, min, firstOption, typeName, firstTarget;
  std::string max;                   // the value's max, when the reference gives one
  std::vector<std::string> options;  // every option, firstOption first
};

namespace syntax_detail {

struct Frame {
  size_t indent;
  bool entry;     // a "- name:" item, else a "key:" block
  std::string key;
  int opcode;     // index into the result for opcode entries, else -1
  std::string version = {};  // of any entry (aliases have modulation lists too: cutoff2)
};

inline std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

// The block key the item at `indent` belongs to, and the entry (opcode or alias) enclosing it.
inline std::string parentKey(const std::vector<Frame>& stack) {
  return !stack.empty() && !stack.back().entry ? stack.back().key : std::string();
}
inline const Frame* enclosingEntry(const std::vector<Frame>& stack) {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (it->entry) return &*it;
  return nullptr;
}

inline bool isModulationList(const std::vector<Frame>& stack) {
  return stack.size() >= 2 && !stack[stack.size() - 2].entry && stack[stack.size() - 2].key == "modulation";
}

}  // namespace syntax_detail

inline std::vector<SyntaxOpcode> readSyntaxOpcodes(const std::filesystem::path& file) {
  using namespace syntax_detail;
  std::vector<SyntaxOpcode> out;
  std::vector<Frame> stack;
  std::string category;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line[indent] == '#') continue;
    const std::string text = line.substr(indent);
    if (text.starts_with("- name: ")) {
      while (!stack.empty() && (stack.back().indent > indent || (stack.back().indent == indent && stack.back().entry)))
        stack.pop_back();
      const std::string key = parentKey(stack);
      const Frame* enclosing = enclosingEntry(stack);
      const std::string name = unquote(text.substr(8));
      if (indent == 0 && key == "categories") category = name;
      const bool opcode = key == "opcodes" || (enclosing && isModulationList(stack));
      if (enclosing && enclosing->opcode >= 0 && (key == "options" || key == "targets")) {
        SyntaxOpcode& owner = out[static_cast<size_t>(enclosing->opcode)];
        std::string& first = key == "options" ? owner.firstOption : owner.firstTarget;
        if (first.empty()) first = name;
        if (key == "options") owner.options.push_back(name);
      }
      const std::string inherited = enclosing ? enclosing->version : std::string();
      if (opcode) out.push_back(SyntaxOpcode{name, inherited, category, "", "", "", "", "", "", {}});
      stack.push_back(Frame{indent, true, name, opcode ? static_cast<int>(out.size() - 1) : -1, inherited});
      continue;
    }
    const size_t colon = text.find(':');
    if (colon == std::string::npos || text.starts_with("- ")) continue;
    while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
    const std::string key = text.substr(0, colon);
    const size_t valueStart = text.find_first_not_of(' ', colon + 1);
    const std::string value = valueStart == std::string::npos ? "" : unquote(text.substr(valueStart));
    Frame* owner = stack.empty() ? nullptr : &stack.back();
    if (owner && owner->entry && key == "version" && owner->indent + 2 == indent) {
      owner->version = value;
      if (owner->opcode >= 0) out[static_cast<size_t>(owner->opcode)].version = value;
    }
    // value: { type_name, default, min, options: [- name] } one level under the entry.
    if (owner && !owner->entry && owner->key == "value" && stack.size() >= 2 && stack[stack.size() - 2].opcode >= 0) {
      SyntaxOpcode& op = out[static_cast<size_t>(stack[stack.size() - 2].opcode)];
      if (key == "default") op.defaultValue = value;
      if (key == "min") op.min = value;
      if (key == "max") op.max = value;
      if (key == "type_name") op.typeName = value;
    }
    if (value.empty()) stack.push_back(Frame{indent, false, key, -1});
  }
  return out;
}

}  // namespace spindle::test
