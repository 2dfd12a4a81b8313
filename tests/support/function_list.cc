#include "tests/support/function_list.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "tests/support/resp_reply.h"

namespace kv::test {

std::string CanonicalFunctionList(const std::string& reply) {
  const std::optional<RespReply> r = ParseReply(reply);
  if (!r) return "unparsable: " + reply;
  std::vector<std::string> libraries;
  for (const RespReply& lib : r->elements) {
    std::string text;
    for (size_t i = 0; i + 1 < lib.elements.size(); i += 2) {
      text += lib.elements[i].str + "=";
      if (lib.elements[i].str == "functions") {
        std::vector<std::string> functions;
        for (const RespReply& f : lib.elements[i + 1].elements) functions.push_back(Describe(f));
        std::sort(functions.begin(), functions.end());
        for (const std::string& f : functions) text += f + ";";
      } else {
        text += Describe(lib.elements[i + 1]);
      }
      text += "|";
    }
    libraries.push_back(text);
  }
  std::sort(libraries.begin(), libraries.end());
  std::string out = std::to_string(libraries.size()) + " libraries\n";
  for (const std::string& l : libraries) out += l + "\n";
  return out;
}

}  // namespace kv::test
