// spindle-osc-table: prints the README's OSC tables from the OscApi table.
#include <iostream>

#include "control/OscApi.h"

int main() {
  std::cout << spindle::control::markdownTable();
  return 0;
}
