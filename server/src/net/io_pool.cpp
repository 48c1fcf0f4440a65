#include "net/io_pool.hpp"

#include <algorithm>

namespace tinsel::server {

io_pool::io_pool(unsigned threads) {
  for (unsigned i = 0; i < std::max(1u, threads); ++i) {
    contexts_.push_back(std::make_unique<boost::asio::io_context>(1));
    guards_.emplace_back(contexts_.back()->get_executor());
  }
}

io_pool::~io_pool() {
  stop();
  join();
}

boost::asio::io_context& io_pool::next_context() {
  const unsigned i = next_.fetch_add(1, std::memory_order_relaxed) % static_cast<unsigned>(contexts_.size());
  return *contexts_[i];
}

void io_pool::run() {
  for (auto& c : contexts_) threads_.emplace_back([&ctx = *c] { ctx.run(); });
}

void io_pool::stop() {
  for (auto& c : contexts_) c->stop();
}

void io_pool::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace tinsel::server
