#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kv {

// Splits an inline command line into arguments with Redis's sdssplitargs rules: blanks separate
// words, "double quotes" understand \n \r \t \b \a \\ \" and \xHH, 'single quotes' only \', and a
// closing quote must be followed by a blank or the end. Like Redis, a NUL byte ends the line.
// Returns false on unbalanced quotes. The words are appended to `storage` and `words` points
// into it.
bool SplitInlineArgs(std::string_view line, std::string* storage,
                     std::vector<std::string_view>* words);

}  // namespace kv
