// Fuzz harness: raw bytes as one HTTP request, parsed with the limits of a live connection and
// answered by the server's pure request handling (server/src/net/http_routes.hpp). What must hold:
// the status is one the docs name; a file is only ever served from inside the web root (or the
// client library's root, /lib/); only a
// request for /ws becomes a WebSocket upgrade, and only with an allowed Origin or none; a refusal
// of a malformed request closes the connection.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "net/http_routes.hpp"
#include "net/static_files.hpp"

namespace {

const tinsel::server::config& fuzz_config() {
  static const tinsel::server::config cfg = [] {
    tinsel::server::config c;
    c.allowed_origins = {"https://friends.example"};
    c.trusted_proxies = {"127.0.0.1"};
    c.server_names = {"a"};  // the seeds' Host; others get 421 (the Host check)
    return c;
  }();
  return cfg;
}

const std::string& web_root() {
  static const std::string root = std::filesystem::weakly_canonical(fuzz_config().web_root).string() + "/";
  return root;
}

const std::string& lib_root() {
  static const std::string root = std::filesystem::weakly_canonical(fuzz_config().lib_root).string() + "/";
  return root;
}

bool documented_status(unsigned s) {
  switch (s) {
    case 0: case 200: case 304: case 400: case 403: case 404: case 405: case 413: case 421: case 431: case 503: return true;
    default: return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  static tinsel::server::static_files files;
  tinsel::server::http_context ctx{fuzz_config(), "127.0.0.1", size % 7 == 0, 3, 5};
  if (size % 2) ctx.files = &files;  // both ways of serving a file: from memory and from disk
  const auto a = tinsel::server::answer_bytes(bytes, ctx);

  if (a.what == tinsel::server::http_answer::action::upgrade) {
    FUZZ_CHECK(!ctx.stopping, "no upgrade while the server stops");
    FUZZ_CHECK(!a.client.empty(), "an upgrade knows its client's address");
    // The request line names /ws (the target is the second word of the first line).
    const auto line = bytes.substr(0, bytes.find('\n'));
    const auto sp = line.find(' ');
    FUZZ_CHECK(sp != std::string_view::npos && line.substr(sp + 1).starts_with("/ws"), "only /ws upgrades");
    return 0;
  }
  FUZZ_CHECK(documented_status(a.status), "a documented status");
  if (a.status == 400 || a.status == 413 || a.status == 421 || a.status == 431) FUZZ_CHECK(!a.keep_alive, "a refused request closes the connection");
  if (a.status == 304) FUZZ_CHECK(a.body.empty() && !a.etag.empty(), "a 304 has no body and names its ETag");
  if (!a.file.empty()) {
    FUZZ_CHECK(a.status == 200, "files are served with 200");
    const auto real = std::filesystem::weakly_canonical(a.file).string();
    FUZZ_CHECK(real.starts_with(web_root()) || real.starts_with(lib_root()), "a file from inside the web or library root only");
    FUZZ_CHECK(std::filesystem::is_regular_file(real), "a regular file");
  }
  return 0;
}
