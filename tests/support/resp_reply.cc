#include "tests/support/resp_reply.h"

#include <cstdlib>
#include <limits>

#include "tests/support/resp_client.h"

namespace kv::test {

namespace {

using Type = RespReply::Type;

constexpr int kMaxDepth = 64;

// Reads replies from a buffer, advancing `pos_`; every method fails (returns false) on
// incomplete or malformed bytes.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  bool Read(RespReply* out, int depth) {
    if (depth > kMaxDepth || pos_ >= data_.size()) return false;
    const char marker = data_[pos_];
    std::string_view line;
    if (!Line(&line)) return false;
    switch (marker) {
      case '+':
        return Text(Type::kSimpleString, line, out);
      case '-':
        return Text(Type::kError, line, out);
      case '(':
        return Digits(line) && Text(Type::kBigNumber, line, out);
      case ':':
        out->type = Type::kInteger;
        return ParseRespLength(line, &out->integer);
      case '_':
        out->type = Type::kNull;
        return line.empty();
      case '#':
        out->type = Type::kBoolean;
        out->boolean = line == "t";
        return line == "t" || line == "f";
      case ',':
        out->type = Type::kDouble;
        out->str = std::string(line);
        return ParseDouble(out->str, &out->number);
      case '$':
        return Blob(line, Type::kBulkString, out);
      case '!':
        return Blob(line, Type::kBlobError, out);
      case '=':
        if (!Blob(line, Type::kVerbatim, out)) return false;
        if (out->str.size() < 4 || out->str[3] != ':') return false;
        out->format = out->str.substr(0, 3);
        out->str.erase(0, 4);
        return true;
      case '*':
        return Aggregate(line, Type::kArray, 1, out, depth);
      case '~':
        return Aggregate(line, Type::kSet, 1, out, depth);
      case '>':
        return Aggregate(line, Type::kPush, 1, out, depth);
      case '%':
        return Aggregate(line, Type::kMap, 2, out, depth);
      case '|': {
        RespReply attribute;
        if (!Aggregate(line, Type::kMap, 2, &attribute, depth)) return false;
        if (!Read(out, depth + 1)) return false;
        out->attributes = std::move(attribute.elements);
        return true;
      }
      default:
        return false;
    }
  }

  bool AtEnd() const { return pos_ == data_.size(); }

 private:
  // The rest of the header line after the type byte; moves past its CRLF.
  bool Line(std::string_view* line) {
    const size_t cr = data_.find("\r\n", pos_);
    if (cr == std::string_view::npos) return false;
    *line = data_.substr(pos_ + 1, cr - pos_ - 1);
    pos_ = cr + 2;
    return true;
  }

  static bool Text(Type type, std::string_view line, RespReply* out) {
    out->type = type;
    out->str = std::string(line);
    return true;
  }

  static bool Digits(std::string_view s) {
    if (!s.empty() && s[0] == '-') s.remove_prefix(1);
    if (s.empty()) return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  }

  static bool ParseDouble(const std::string& s, double* out) {
    if (s.empty()) return false;
    char* end = nullptr;
    *out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
  }

  // A length-prefixed string; only a bulk string has a null form ($-1).
  bool Blob(std::string_view line, Type type, RespReply* out) {
    long long len;
    if (!ParseRespLength(line, &len) || len < -1) return false;
    if (len == -1) {
      out->type = Type::kNullBulk;
      return type == Type::kBulkString;
    }
    const size_t n = static_cast<size_t>(len);
    if (data_.size() - pos_ < n + 2 || data_.substr(pos_ + n, 2) != "\r\n") return false;
    out->type = type;
    out->str = std::string(data_.substr(pos_, n));
    pos_ += n + 2;
    return true;
  }

  bool Aggregate(std::string_view line, Type type, long long per_entry, RespReply* out, int depth) {
    long long n;
    if (!ParseRespLength(line, &n) || n < -1) return false;
    if (n == -1) {
      out->type = Type::kNullArray;
      return type == Type::kArray;
    }
    out->type = type;
    // Each element takes at least 3 bytes: never reserve for a count the bytes cannot hold.
    if (static_cast<unsigned long long>(n) * per_entry > (data_.size() - pos_) / 3) return false;
    out->elements.resize(static_cast<size_t>(n * per_entry));
    for (RespReply& e : out->elements) {
      if (!Read(&e, depth + 1)) return false;
    }
    return true;
  }

  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

bool ParseRespLength(std::string_view s, long long* out) {
  if (s.empty() || s.size() > 19) return false;
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    i = 1;
    if (s.size() == 1) return false;
  }
  long long v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const int digit = s[i] - '0';
    if (v > (std::numeric_limits<long long>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = negative ? -v : v;
  return true;
}

std::optional<RespReply> ParseReply(std::string_view bytes) {
  Reader reader(bytes);
  RespReply reply;
  if (!reader.Read(&reply, 0) || !reader.AtEnd()) return std::nullopt;
  return reply;
}

const RespReply* RespReply::Find(std::string_view key) const {
  if (type != Type::kMap) return nullptr;
  for (size_t i = 0; i + 1 < elements.size(); i += 2) {
    if (elements[i].str == key) return &elements[i + 1];
  }
  return nullptr;
}

bool RespReply::UsesResp3() const {
  switch (type) {
    case Type::kSimpleString:
    case Type::kError:
    case Type::kInteger:
    case Type::kBulkString:
    case Type::kNullBulk:
    case Type::kNullArray:
      break;
    case Type::kArray:
      for (const RespReply& e : elements) {
        if (e.UsesResp3()) return true;
      }
      break;
    default:
      return true;
  }
  return !attributes.empty();
}

std::string Describe(const RespReply& reply) {
  std::string out;
  if (!reply.attributes.empty()) {
    RespReply attribute;
    attribute.type = Type::kMap;
    attribute.elements = reply.attributes;
    out = "|" + Describe(attribute).substr(1) + " ";
  }
  auto quoted = [](const std::string& s) { return "\"" + Escape(s) + "\""; };
  switch (reply.type) {
    case Type::kSimpleString:
      return out + "+" + quoted(reply.str);
    case Type::kError:
      return out + "-" + quoted(reply.str);
    case Type::kInteger:
      return out + ":" + std::to_string(reply.integer);
    case Type::kBulkString:
      return out + "$" + quoted(reply.str);
    case Type::kNullBulk:
      return out + "$nil";
    case Type::kNullArray:
      return out + "*nil";
    case Type::kNull:
      return out + "_";
    case Type::kDouble:
      return out + "," + reply.str;
    case Type::kBoolean:
      return out + (reply.boolean ? "#t" : "#f");
    case Type::kBigNumber:
      return out + "(" + reply.str;
    case Type::kBlobError:
      return out + "!" + quoted(reply.str);
    case Type::kVerbatim:
      return out + "=" + reply.format + ":" + quoted(reply.str);
    case Type::kMap:
      out += "%{";
      for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        out +=
            (i ? ", " : "") + Describe(reply.elements[i]) + ": " + Describe(reply.elements[i + 1]);
      }
      return out + "}";
    case Type::kArray:
    case Type::kSet:
    case Type::kPush:
      out += reply.type == Type::kArray ? "*[" : reply.type == Type::kSet ? "~[" : ">[";
      for (size_t i = 0; i < reply.elements.size(); ++i) {
        out += (i ? ", " : "") + Describe(reply.elements[i]);
      }
      return out + "]";
  }
  return out + "?";
}

const char* TypeName(Type type) {
  switch (type) {
    case Type::kSimpleString:
      return "simple string";
    case Type::kError:
      return "error";
    case Type::kInteger:
      return "integer";
    case Type::kBulkString:
      return "bulk string";
    case Type::kNullBulk:
      return "null bulk";
    case Type::kArray:
      return "array";
    case Type::kNullArray:
      return "null array";
    case Type::kNull:
      return "null";
    case Type::kDouble:
      return "double";
    case Type::kBoolean:
      return "boolean";
    case Type::kBigNumber:
      return "big number";
    case Type::kBlobError:
      return "blob error";
    case Type::kVerbatim:
      return "verbatim string";
    case Type::kMap:
      return "map";
    case Type::kSet:
      return "set";
    case Type::kPush:
      return "push";
  }
  return "?";
}

}  // namespace kv::test
