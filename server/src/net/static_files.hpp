#pragma once
// The browser client's files, served from memory: each file is read once (again when its size or
// modification time changes), with a strong ETag for revalidation and, for text, a gzip copy made
// once. A page load on a slow phone line then costs the compressed bytes the first time and a
// 304 per file after that. Safe to use from every I/O thread.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tinsel::server {

class static_files {
 public:
  struct file {
    std::string bytes;  // the file as it is
    std::string gzip;   // gzip-compressed, or empty when that would not be smaller (or not text)
    std::string etag;   // "<content hash>", quoted as HTTP wants it
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
  };

  // Files larger than this are not kept in memory (the caller streams them from disk instead).
  static constexpr std::uintmax_t max_file_bytes = 4 * 1024 * 1024;

  // The file at `path` (a regular file under a served root), or null if it cannot be read or is
  // too large. `compressible`: a text type worth compressing.
  std::shared_ptr<const file> get(const std::filesystem::path& path, bool compressible);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const file>> files_;
};

// gzip (RFC 1952) of `in` at `level` (1 fastest .. 9 best); empty on failure.
std::string gzip_compress(const std::string& in, int level = 9);

}  // namespace tinsel::server
