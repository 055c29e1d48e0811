// cliopts: a small header-only command-line options parser.
//
//   cliopts::Parser p;
//   p.flag("verbose", 'v', "say more").option("width", 'w', "80", "line width");
//   auto r = p.parse({"-vv", "--width=100", "input.txt"});
//   r.count("verbose") == 2; r.get_int("width") == 100; r.positional() == {"input.txt"}
//
// Long options: --name, --name=value, --name value. Short options: -n, -n value, -nvalue, and
// bundles of flags (-abc). "--" ends the options; everything after it is positional.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cliopts {

class parse_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A decimal integer with an optional sign; the whole text must be the number.
inline int parse_int(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) throw parse_error("out of range: " + std::string(text));
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw parse_error("not an integer: '" + std::string(text) + "'");
  return value;
}

// true/false, yes/no, on/off, 1/0, in any case.
inline bool parse_bool(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;
  if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return false;
  throw parse_error("not a boolean: '" + std::string(text) + "'");
}

// "key=value" -> {"key", "value"}; without the separator the value is empty.
inline std::pair<std::string, std::string> split_key_value(std::string_view text, char sep = '=') {
  const auto at = text.find(sep);
  if (at == std::string_view::npos) return {std::string(text), std::string()};
  return {std::string(text.substr(0, at)), std::string(text.substr(at + 1))};
}

class Result {
 public:
  bool has(std::string_view name) const { return counts_.find(std::string(name)) != counts_.end(); }
  std::size_t count(std::string_view name) const {
    auto it = counts_.find(std::string(name));
    return it == counts_.end() ? 0 : it->second;
  }
  const std::string& get(std::string_view name) const {
    auto it = values_.find(std::string(name));
    if (it == values_.end()) throw parse_error("no such option: " + std::string(name));
    return it->second;
  }
  int get_int(std::string_view name) const { return parse_int(get(name)); }
  bool get_bool(std::string_view name) const { return parse_bool(get(name)); }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  friend class Parser;
  std::map<std::string, std::size_t> counts_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

class Parser {
 public:
  Parser& flag(std::string long_name, char short_name, std::string help) {
    options_.push_back({std::move(long_name), short_name, false, "", std::move(help)});
    return *this;
  }
  Parser& option(std::string long_name, char short_name, std::string default_value, std::string help) {
    options_.push_back({std::move(long_name), short_name, true, std::move(default_value), std::move(help)});
    return *this;
  }

  Result parse(const std::vector<std::string>& args) const {
    Result r;
    for (const auto& o : options_)
      if (o.takes_value) r.values_[o.long_name] = o.default_value;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--") {
        r.positional_.insert(r.positional_.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
        break;
      }
      if (arg.rfind("--", 0) == 0) {
        auto [name, value] = split_key_value(std::string_view(arg).substr(2));
        const Opt& o = by_long(name);
        if (o.takes_value) {
          if (arg.find('=') == std::string::npos) {
            if (i + 1 >= args.size()) throw parse_error("--" + name + " needs a value");
            value = args[++i];
          }
          r.values_[o.long_name] = value;
        } else if (arg.find('=') != std::string::npos) {
          throw parse_error("--" + name + " takes no value");
        }
        ++r.counts_[o.long_name];
      } else if (arg.size() > 1 && arg[0] == '-') {
        for (std::size_t k = 1; k < arg.size(); ++k) {
          const Opt& o = by_short(arg[k]);
          ++r.counts_[o.long_name];
          if (!o.takes_value) continue;
          if (k + 1 < arg.size()) {
            r.values_[o.long_name] = arg.substr(k + 1);
          } else {
            if (i + 1 >= args.size()) throw parse_error(std::string("-") + arg[k] + " needs a value");
            r.values_[o.long_name] = args[++i];
          }
          break;
        }
      } else {
        r.positional_.push_back(arg);
      }
    }
    return r;
  }

  Result parse(int argc, const char* const* argv) const { return parse(std::vector<std::string>(argv + 1, argv + argc)); }

  std::string usage(std::string_view program) const {
    std::string out = "usage: " + std::string(program) + " [options]\n";
    for (const auto& o : options_) {
      std::string left = "  ";
      left += o.short_name ? std::string("-") + o.short_name + ", " : "    ";
      left += "--" + o.long_name + (o.takes_value ? "=VALUE" : "");
      if (left.size() < 26) left.resize(26, ' ');
      out += left + o.help;
      if (o.takes_value && !o.default_value.empty()) out += " (default: " + o.default_value + ")";
      out += '\n';
    }
    return out;
  }

 private:
  struct Opt {
    std::string long_name;
    char short_name;
    bool takes_value;
    std::string default_value, help;
  };
  const Opt& by_long(const std::string& name) const {
    for (const auto& o : options_)
      if (o.long_name == name) return o;
    throw parse_error("unknown option: --" + name);
  }
  const Opt& by_short(char c) const {
    for (const auto& o : options_)
      if (o.short_name == c) return o;
    throw parse_error(std::string("unknown option: -") + c);
  }
  std::vector<Opt> options_;
};

}  // namespace cliopts
