#include "net/static_files.hpp"

#include <fstream>
#include <iterator>

#include <spdlog/spdlog.h>
#include <zlib.h>

namespace tinsel::server {

namespace {

// FNV-1a, 64 bits: the ETag only has to change when the content does.
std::string content_tag(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  char out[24];
  std::snprintf(out, sizeof out, "\"%016llx\"", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace

std::string gzip_compress(const std::string& in, int level) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string{};
}

std::shared_ptr<const static_files::file> static_files::get(const std::filesystem::path& path, bool compressible) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > max_file_bytes) return nullptr;
  const auto mtime = std::filesystem::last_write_time(path, ec);
  if (ec) return nullptr;
  const std::string key = path.string();
  {
    std::lock_guard lock(mutex_);
    if (auto it = files_.find(key); it != files_.end() && it->second->size == size && it->second->mtime == mtime)
      return it->second;
  }
  // Read and compress outside the lock; two threads may both do it once, which is harmless.
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  auto f = std::make_shared<file>();
  f->bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (f->bytes.size() != size) return nullptr;  // changed while being read: the next request retries
  f->size = size;
  f->mtime = mtime;
  f->etag = content_tag(f->bytes);
  if (compressible) {
    f->gzip = gzip_compress(f->bytes);
    if (f->gzip.size() >= f->bytes.size()) f->gzip.clear();
  }
  spdlog::debug("static file loaded path={} bytes={} gzip={}", key, f->bytes.size(), f->gzip.size());
  std::lock_guard lock(mutex_);
  return files_[key] = std::move(f);
}

}  // namespace tinsel::server
