#include "net/record_cache.hpp"

#include <zlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "net/static_files.hpp"

namespace tinsel::server {

std::string record_etag(const std::string& id) { return "\"record-" + id + "-c1\""; }  // c1: compact JSON

std::shared_ptr<const record_cache::entry> record_cache::get(const std::string& id, const loader& load,
                                                            const checker& still_served) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(id); it != index_.end()) {
      if (!still_served || still_served(id)) {
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
      }
      bytes_ -= it->second->second->gzip.size();  // past its days: gone from memory too
      order_.erase(it->second);
      index_.erase(it);
      return nullptr;
    }
  }
  auto text = load(id);
  if (!text) return nullptr;
  auto e = std::make_shared<entry>();
  e->size = text->size();
  // Level 6: about as small as 9 on JSON, for a fraction of the time; done once per record.
  e->gzip = gzip_compress(*text, 6);
  const bool large = e->size > 1024 * 1024;
  text.reset();
#if defined(__GLIBC__)
  // Parsing and printing a large record took many times its size, freed by now: give it back to
  // the system rather than keep it in the heap for good.
  if (large) ::malloc_trim(0);
#endif
  if (e->gzip.empty()) return nullptr;
  std::shared_ptr<const entry> out = std::move(e);
  std::lock_guard lock(mutex_);
  if (index_.count(id) || out->gzip.size() > max_bytes_) return out;
  order_.emplace_front(id, out);
  index_[id] = order_.begin();
  bytes_ += out->gzip.size();
  while (bytes_ > max_bytes_) {
    bytes_ -= order_.back().second->gzip.size();
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  return out;
}

std::size_t record_cache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::optional<std::string> gunzip(const std::string& in) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
  std::string out;
  char buf[64 * 1024];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

}  // namespace tinsel::server
