// spindle-osc-table: prints the OSC tables of docs/osc.md from the OscApi table.
#include <iostream>

#include "control/OscApi.h"

int main() {
  std::cout << spindle::control::markdownTable();
  return 0;
}
