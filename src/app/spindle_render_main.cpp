// spindle-render: renders a MIDI file through an SFZ instrument into a WAV file.
#include <iostream>
#include <string>
#include <vector>

#include "app/RenderCommand.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::app::runRender(args, std::cout, std::cerr);
}
