#pragma once
// Finished games' records, ready to send (docs/protocol.md, "Game records"): compact JSON,
// gzip-compressed once, kept in memory most recently used first up to a byte bound. A record
// never changes once its game has finished, so a copy is good for as long as it is kept, and its
// ETag follows from its id alone: a revalidation costs neither the journal nor the cache.
// Thread-safe; a record being loaded by one thread may be loaded by another at the same time
// (the I/O threads are few), which is harmless.
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tinsel::server {

class record_cache {
 public:
  struct entry {
    std::string gzip;      // the compact JSON text, gzip-compressed
    std::size_t size = 0;  // of the JSON text before compression
  };
  // The record's JSON text (compact) by id, or nullopt when there is none.
  using loader = std::function<std::optional<std::string>(const std::string& id)>;

  explicit record_cache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // Whether a record is still served (kept for --keep-records-days): asked before a kept copy is used.
  using checker = std::function<bool(const std::string& id)>;

  // The record `id`, from memory or loaded (then kept, if it fits); null when there is none. A
  // kept copy of a record that `still_served` (when given) denies is dropped.
  std::shared_ptr<const entry> get(const std::string& id, const loader& load, const checker& still_served = nullptr);
  std::size_t bytes() const;

 private:
  using lru = std::list<std::pair<std::string, std::shared_ptr<const entry>>>;
  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  lru order_;  // most recently used first
  std::unordered_map<std::string, lru::iterator> index_;
  std::size_t bytes_ = 0;
};

// The strong ETag of record `id` in the form it is served (compact JSON).
std::string record_etag(const std::string& id);
// gzip (RFC 1952) decompressed; nullopt when `in` is not a complete gzip stream.
std::optional<std::string> gunzip(const std::string& in);

}  // namespace tinsel::server
