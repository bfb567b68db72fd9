#include "certificate.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "file_bytes.h"

namespace gobblet::proof {

namespace {

constexpr size_t kChecksumOffset = 24;
constexpr size_t kSmallestNodeBytes = 5;  // an AND node of no child (rejected by the checker, but well formed)

}  // namespace

int certificatePlies(const Certificate& c) {
  std::vector<int> depth(c.nodes.size(), 0);
  int plies = 0;
  for (size_t i = 0; i < c.nodes.size(); ++i)
    for (uint32_t child : c.nodes[i].children) {
      if (child == kWonLeaf || child == kDatabaseLeaf) {
        plies = std::max(plies, depth[i] + 1);
      } else if (child > i && child < c.nodes.size()) {
        depth[child] = std::max(depth[child], depth[i] + 1);
      }
    }
  return plies;
}

absl::StatusOr<std::string> encodeCertificate(const Certificate& c) {
  if (c.variant.empty() || c.variant.size() > kMaxVariantNameBytes)
    return absl::InvalidArgumentError("variant name of bad length");
  if (c.position.empty() || c.position.size() > kMaxPositionBytes)
    return absl::InvalidArgumentError("position text of bad length");
  if (c.nodes.empty()) return absl::InvalidArgumentError("a certificate has at least one node");
  const bool notLost = c.kind == CertificateKind::kNotLost;
  bool databaseLeaves = false;
  for (const CertificateNode& n : c.nodes)
    for (uint32_t child : n.children) databaseLeaves |= child == kDatabaseLeaf;
  std::string out(kCertificateMagic, sizeof kCertificateMagic);
  putLittleEndian<uint32_t>(out, notLost          ? kNotLostCertificateVersion
                                 : databaseLeaves ? kDatabaseCertificateVersion
                                                  : kCertificateVersion);
  putLittleEndian<uint8_t>(out, c.winner);
  putLittleEndian<uint8_t>(out, static_cast<uint8_t>(c.variant.size()));
  putLittleEndian<uint16_t>(out, static_cast<uint16_t>(c.position.size()));
  putLittleEndian<uint64_t>(out, c.nodes.size());
  putLittleEndian<uint64_t>(out, 0);  // the checksum, filled in last
  out += c.variant;
  out += c.position;
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const CertificateNode& n = c.nodes[i];
    if (n.orNode && n.children.size() != 1)
      return absl::InvalidArgumentError(absl::StrCat("node ", i, ": an OR node has one child"));
    if (n.children.size() > 0xFFFF) return absl::InvalidArgumentError(absl::StrCat("node ", i, ": too many children"));
    for (uint32_t child : n.children) {
      if (notLost) {
        if (child != kWonLeaf && child != kDrawnLeaf && child != kDatabaseLeaf && child >= c.nodes.size())
          return absl::InvalidArgumentError(absl::StrCat("node ", i, ": child ", child, " is not a node or a leaf"));
      } else if (child != kWonLeaf && child != kDatabaseLeaf && (child <= i || child >= c.nodes.size())) {
        return absl::InvalidArgumentError(absl::StrCat("node ", i, ": child ", child, " is not a later node"));
      }
    }
    if (n.orNode) {
      putLittleEndian<uint8_t>(out, 'O');
      putLittleEndian<uint16_t>(out, n.move.raw());
    } else {
      putLittleEndian<uint8_t>(out, 'A');
      putLittleEndian<uint16_t>(out, static_cast<uint16_t>(n.children.size()));
    }
    for (uint32_t child : n.children) putLittleEndian<uint32_t>(out, child);
  }
  overwriteLittleEndian64(out.data() + kChecksumOffset, checksum(kChecksumStart, out.data(), out.size()));
  return out;
}

absl::Status writeCertificate(const Certificate& certificate, const std::string& path) {
  auto bytes = encodeCertificate(certificate);
  if (!bytes.ok()) return bytes.status();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::StatusOr<CertificateReader> CertificateReader::open(std::istream& in, const CertificateLimits& limits) {
  char head[kCertificateHeaderBytes];
  in.read(head, sizeof head);
  if (in.gcount() >= 8 && std::memcmp(head, kCertificateMagic, 8) != 0)
    return absl::InvalidArgumentError("not a certificate (bad magic)");
  if (in.gcount() < static_cast<std::streamsize>(sizeof head))
    return absl::DataLossError("file cut short in the header");
  const uint32_t version = getLittleEndian<uint32_t>(head + 8);
  if (version != kCertificateVersion && version != kDatabaseCertificateVersion && version != kNotLostCertificateVersion)
    return absl::InvalidArgumentError(absl::StrCat("certificate version ", version, ", this reader knows ",
                                                   kCertificateVersion, " to ", kNotLostCertificateVersion));
  CertificateReader reader(in);
  CertificateHeader& h = reader.header_;
  h.version = version;
  h.kind = version == kNotLostCertificateVersion ? CertificateKind::kNotLost : CertificateKind::kWin;
  h.winner = getLittleEndian<uint8_t>(head + 12);
  const size_t variantBytes = getLittleEndian<uint8_t>(head + 13), positionBytes = getLittleEndian<uint16_t>(head + 14);
  h.nodes = getLittleEndian<uint64_t>(head + 16);
  const uint64_t storedSum = getLittleEndian<uint64_t>(head + kChecksumOffset);
  if (h.winner > 1) return absl::InvalidArgumentError(absl::StrCat("bad winner field ", int{h.winner}));
  if (variantBytes == 0 || variantBytes > kMaxVariantNameBytes)
    return absl::InvalidArgumentError(absl::StrCat("bad variant name length ", variantBytes));
  if (positionBytes == 0 || positionBytes > kMaxPositionBytes)
    return absl::InvalidArgumentError(absl::StrCat("bad position text length ", positionBytes));
  if (h.nodes == 0) return absl::InvalidArgumentError("node count 0");
  if (h.nodes > limits.maxNodes)
    return absl::ResourceExhaustedError(absl::StrCat("node count ", h.nodes, " over the limit of ", limits.maxNodes));
  // The checksum, over the whole stream (the checksum field read as zeros).
  uint64_t sum = checksum(kChecksumStart, head, kChecksumOffset);
  const char zeros[8] = {};
  sum = checksum(sum, zeros, 8);
  uint64_t size = sizeof head;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    sum = checksum(sum, buffer, static_cast<size_t>(in.gcount()));
    size += static_cast<uint64_t>(in.gcount());
  }
  const uint64_t bodyStart = sizeof head + variantBytes + positionBytes;
  if (size < bodyStart) return absl::DataLossError("file cut short before the nodes");
  if ((size - bodyStart) / kSmallestNodeBytes < h.nodes)
    return absl::DataLossError(absl::StrCat("node count ", h.nodes, " cannot fit in the file's ", size, " bytes"));
  if (sum != storedSum) return absl::DataLossError("checksum mismatch (the file is corrupted)");
  in.clear();
  in.seekg(static_cast<std::streamoff>(sizeof head));
  h.variant.resize(variantBytes);
  h.position.resize(positionBytes);
  in.read(h.variant.data(), static_cast<std::streamsize>(variantBytes));
  in.read(h.position.data(), static_cast<std::streamsize>(positionBytes));
  if (!in) return absl::DataLossError("cannot read the header's texts");
  return reader;
}

absl::Status CertificateReader::next(CertificateNode& node) {
  if (read_ >= header_.nodes) return absl::OutOfRangeError("no more nodes");
  const uint64_t index = read_++;
  char head[3];
  if (!in_->read(head, 3)) return absl::DataLossError(absl::StrCat("file cut short at node ", index));
  const uint16_t field = getLittleEndian<uint16_t>(head + 1);
  node.children.clear();
  size_t count;
  if (head[0] == 'O') {
    node.orNode = true;
    node.move = Move::fromRaw(field);
    count = 1;
  } else if (head[0] == 'A') {
    node.orNode = false;
    node.move = Move::none();
    count = field;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("node ", index, ": bad tag"));
  }
  char child[4];
  for (size_t i = 0; i < count; ++i) {
    if (!in_->read(child, 4)) return absl::DataLossError(absl::StrCat("file cut short at node ", index));
    node.children.push_back(getLittleEndian<uint32_t>(child));
  }
  return absl::OkStatus();
}

absl::Status CertificateReader::finish() {
  if (read_ != header_.nodes) return absl::FailedPreconditionError("nodes left unread");
  if (in_->peek() != std::char_traits<char>::eof()) return absl::DataLossError("bytes after the last node");
  return absl::OkStatus();
}

absl::StatusOr<Certificate> readCertificate(std::istream& in, const CertificateLimits& limits) {
  auto reader = CertificateReader::open(in, limits);
  if (!reader.ok()) return reader.status();
  Certificate c;
  c.kind = reader->header().kind;
  c.variant = reader->header().variant;
  c.position = reader->header().position;
  c.winner = reader->header().winner;
  // Node by node: memory follows what was read, not the count the header claims.
  for (uint64_t i = 0; i < reader->header().nodes; ++i)
    if (auto status = reader->next(c.nodes.emplace_back()); !status.ok()) return status;
  if (auto status = reader->finish(); !status.ok()) return status;
  return c;
}

absl::StatusOr<Certificate> readCertificateFile(const std::string& path, const CertificateLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  return readCertificate(in, limits);
}

}  // namespace gobblet::proof
