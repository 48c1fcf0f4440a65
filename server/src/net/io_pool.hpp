#pragma once
// The server's threads: one io_context per thread, as high-throughput Asio servers do. Every
// connection and every room lives on one context, chosen round robin, and its handlers run on that
// context's thread alone; work crosses threads only where a member's connection and its room live
// on different ones. Compared with N threads sharing one io_context, no lock is shared by all
// threads, and a handler posted by a thread to itself never takes one (concurrency hint 1).
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace tinsel::server {

// A connection's socket, bound to its context's executor by type: the type-erased any_io_executor
// of tcp::socket costs a call through a table on every operation, and 40 bytes of Beast's
// per-connection WebSocket state (bench/README.md, "A third step").
using connection_executor = boost::asio::io_context::executor_type;
using connection_socket = boost::asio::basic_stream_socket<boost::asio::ip::tcp, connection_executor>;

class io_pool {
 public:
  explicit io_pool(unsigned threads);
  ~io_pool();
  io_pool(const io_pool&) = delete;
  io_pool& operator=(const io_pool&) = delete;

  // The first context: the listeners, signals and shutdown live here (and connections and rooms
  // too, in their turn).
  boost::asio::io_context& main() { return *contexts_.front(); }
  // The context for a new connection or room, round robin. Thread-safe.
  boost::asio::io_context& next_context();
  boost::asio::any_io_executor next() { return next_context().get_executor(); }
  std::size_t size() const { return contexts_.size(); }

  void run();   // one thread per context
  void stop();  // every context returns from run(); thread-safe
  void join();

 private:
  using guard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<guard> guards_;  // a context with nothing to do yet keeps running
  std::vector<std::thread> threads_;
  std::atomic<unsigned> next_{0};
};

}  // namespace tinsel::server
