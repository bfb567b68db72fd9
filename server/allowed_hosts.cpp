#include "server/allowed_hosts.h"

#include <boost/asio/ip/address.hpp>

#include "absl/strings/ascii.h"

namespace gobblet {

namespace {

std::string lower(std::string_view text) { return absl::AsciiStrToLower(std::string(text)); }

// The host part of a Host header, brackets of an IPv6 literal removed,
// lower case; empty if malformed (a port that is not a number, an open
// bracket).
std::string hostPart(std::string_view header) {
  if (header.empty()) return {};
  std::string_view host = header, port;
  if (header.front() == '[') {
    const size_t close = header.find(']');
    if (close == std::string_view::npos) return {};
    host = header.substr(1, close - 1);
    const std::string_view rest = header.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return {};
      port = rest.substr(1);
      if (port.empty()) return {};
    }
  } else if (const size_t colon = header.rfind(':'); colon != std::string_view::npos) {
    host = header.substr(0, colon);
    port = header.substr(colon + 1);
    if (port.empty() || host.find(':') != std::string_view::npos) return {};
  }
  if (port.size() > 5) return {};
  for (char c : port)
    if (c < '0' || c > '9') return {};
  return lower(host);
}

bool isAddressLiteral(const std::string& host) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  return !ec;
}

}  // namespace

AllowedHosts::AllowedHosts(std::string boundAddress, std::vector<std::string> names) : bound_(lower(boundAddress)) {
  boost::system::error_code ec;
  const boost::asio::ip::address address = boost::asio::ip::make_address(bound_, ec);
  boundToEveryInterface_ = !ec && address.is_unspecified();
  boundToLocalhost_ = bound_ == "localhost";
  for (const std::string& name : names) names_.push_back(lower(name));
}

bool AllowedHosts::allowsHost(std::string_view hostHeader) const {
  const std::string host = hostPart(hostHeader);
  if (host.empty()) return false;
  if (host == "localhost" || host == bound_) return true;
  if (boundToEveryInterface_ && isAddressLiteral(host)) return true;
  if (boundToLocalhost_) {
    boost::system::error_code ec;
    const boost::asio::ip::address address = boost::asio::ip::make_address(host, ec);
    if (!ec && address.is_loopback()) return true;
  }
  for (const std::string& name : names_)
    if (host == name) return true;
  return false;
}

bool AllowedHosts::allowsOrigin(std::string_view origin, std::string_view hostHeader) const {
  if (!allowsHost(hostHeader)) return false;
  for (std::string_view scheme : {"http://", "https://"})
    if (origin.size() == scheme.size() + hostHeader.size() && origin.substr(0, scheme.size()) == scheme &&
        lower(origin.substr(scheme.size())) == lower(hostHeader))
      return true;
  return false;
}

}  // namespace gobblet
