// AllowedHosts: the names a request to the board's HTTP server may use, its
// defence against DNS rebinding.
//
// A web page the user visits can point its own name at 127.0.0.1 (DNS
// rebinding): its requests then reach the board with `Host:
// evil.example:PORT` and a matching `Origin`, so a same-origin check alone
// lets it in. The server therefore answers only requests whose Host names
// this machine the way a person opening the board would:
//   - the address the server is bound to, as a literal (127.0.0.1, [::1]);
//     bound to every interface (0.0.0.0 or ::), any IP address literal,
//     since an address, unlike a name, cannot be re-pointed;
//   - localhost; bound to the name localhost, the loopback literals
//     (127.0.0.1, [::1]) too: they are where that name points;
//   - the names the operator lists (gobblet --allow-host NAME).
// The port of a Host is not compared (a name is what rebinding changes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gobblet {

class AllowedHosts {
 public:
  // `boundAddress`: the listening address as given ("127.0.0.1", "::1",
  // "0.0.0.0"); `names`: the operator's extra names (case-insensitive).
  AllowedHosts(std::string boundAddress, std::vector<std::string> names);

  // A Host header value ("name", "name:port", "[v6]", "[v6]:port"): may it
  // be served? False for an empty or malformed value.
  bool allowsHost(std::string_view hostHeader) const;

  // An Origin header value: true if it is "http://" or "https://" followed
  // by exactly `hostHeader` (the same origin) and that host is allowed.
  bool allowsOrigin(std::string_view origin, std::string_view hostHeader) const;

 private:
  std::string bound_;  // lower case, IPv6 without brackets
  bool boundToEveryInterface_ = false;
  bool boundToLocalhost_ = false;   // bound to the name "localhost"
  std::vector<std::string> names_;  // lower case
};

}  // namespace gobblet
