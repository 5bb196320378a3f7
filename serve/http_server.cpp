#include "serve/http_server.h"

#include <atomic>
#include <cctype>
#include <csignal>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "serve/cors.h"

namespace fts::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = beast::error_code;

namespace {

class Session;

std::string_view std_view(beast::string_view v) { return {v.data(), v.size()}; }

// A well-formed request line ending in "HTTP/d.d\r" for a version not 1.x
// (Beast reports every bad version the same way).
bool names_other_version(std::string_view line) {
  if (line.size() < 10 || !line.ends_with('\r')) return false;
  std::string_view v = line.substr(line.size() - 9, 8);
  return line[line.size() - 10] == ' ' && v.starts_with("HTTP/") && std::isdigit(static_cast<unsigned char>(v[5])) &&
         v[6] == '.' && std::isdigit(static_cast<unsigned char>(v[7])) && v[5] != '1';
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Bytes a closing connection may still read and drop, so that the client
// sees our error response instead of a reset while it is still sending.
constexpr size_t kLingerBytes = 256u << 20;
constexpr std::chrono::milliseconds kLingerTime{2000};
constexpr std::chrono::milliseconds kLingerQuiet{200};  // no more bytes for this long: close
constexpr std::chrono::milliseconds kRejectTimeout{1000};

}  // namespace

struct HttpServer::Core : std::enable_shared_from_this<HttpServer::Core> {
  HttpOptions options;
  Api& api;
  IndexHolder& index;
  Metrics& metrics;
  AccessLog& log;

  net::io_context ioc;
  tcp::acceptor acceptor;
  net::thread_pool search_pool;
  // Writes (POST, PUT, DELETE) run here, one at a time: a commit that takes a
  // while never holds a search thread.
  net::thread_pool write_pool;
  net::signal_set signals;
  net::steady_timer reload_timer;
  net::steady_timer drain_timer;
  net::steady_timer accept_retry;

  std::atomic<size_t> pending{0};
  std::atomic<bool> draining{false};
  std::atomic<size_t> rejecting{0};

  std::mutex sessions_mu;
  std::unordered_set<Session*> sessions;

  Core(HttpOptions o, Api& a, IndexHolder& i, Metrics& m, AccessLog& l)
      : options(std::move(o)),
        api(a),
        index(i),
        metrics(m),
        log(l),
        ioc(static_cast<int>(std::max(1u, options.threads))),
        acceptor(ioc),
        search_pool(std::max(1u, options.threads)),
        write_pool(1),
        signals(ioc, SIGTERM, SIGINT),
        reload_timer(ioc),
        drain_timer(ioc),
        accept_retry(ioc) {
    tcp::endpoint endpoint(net::ip::make_address(options.host), options.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(net::socket_base::max_listen_connections);
  }

  void start();
  void accept();
  void watch_index();
  void drain();
  void add(Session* s) {
    std::lock_guard lk(sessions_mu);
    sessions.insert(s);
  }
  void remove(Session* s);
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<HttpServer::Core> core, bool reject)
      : stream_(std::move(socket)), core_(std::move(core)), reject_(reject) {
    error_code ec;
    auto ep = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = ep.address().to_string();
    stream_.socket().set_option(tcp::no_delay(true), ec);
    core_->metrics.connection_opened();
  }
  ~Session() {
    core_->metrics.connection_closed();
    if (reject_) core_->rejecting.fetch_sub(1);
    core_->remove(this);
  }

  void start() {
    core_->add(this);
    if (core_->draining) {
      // Accepted just before the acceptor closed.
      close_now();
      return;
    }
    // The first request has header_timeout from the connection on, so a
    // client that connects and sends nothing holds a slot no longer.
    arm_deadline(reject_ ? kRejectTimeout : core_->options.header_timeout);
    read_request_line();
  }

  // From a drain, on any thread: an idle connection closes now, a busy one
  // after its response.
  void drain_soon() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      self->draining_ = true;
      const bool nothing_yet = self->state_ == State::kReading && self->buffer_.size() == 0;
      if (self->state_ == State::kIdle || nothing_yet) self->close_now();
    });
  }

 private:
  enum class State { kIdle, kReading, kAnswering, kClosing };

  // Reads have their own deadline (tcp_stream's own timeout closes the
  // socket, and a client past its header time should still read a 408):
  // when it passes, pending reads are cancelled and timed_out_ says why.
  void arm_deadline(std::chrono::milliseconds d) {
    timed_out_ = false;
    deadline_.expires_after(d);
    deadline_.async_wait([self = shared_from_this(), generation = ++deadline_generation_](error_code ec) {
      if (ec || generation != self->deadline_generation_) return;
      self->timed_out_ = true;
      error_code ignored;
      self->stream_.socket().cancel(ignored);
    });
  }
  void disarm_deadline() {
    ++deadline_generation_;
    deadline_.cancel();
  }

  // Keep-alive: wait for the next request's first byte (idle_timeout), then
  // give its header header_timeout.
  void wait_for_request() {
    if (draining_ || core_->draining) {
      close_now();
      return;
    }
    if (buffer_.size() > 0) {  // pipelined: already here
      arm_deadline(core_->options.header_timeout);
      read_request_line();
      return;
    }
    state_ = State::kIdle;
    arm_deadline(core_->options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, size_t n) {
      if (ec) return self->close_now();
      self->buffer_.commit(n);
      self->arm_deadline(self->core_->options.header_timeout);
      self->read_request_line();
    });
  }

  // The request line alone first, so that one too long is told apart (414)
  // from too many header bytes (431).
  void read_request_line() {
    state_ = State::kReading;
    auto data = buffer_.data();
    std::string_view seen(static_cast<const char*>(data.data()), data.size());
    const size_t limit = core_->options.max_request_line;
    size_t eol = seen.find('\n');
    if (eol != std::string_view::npos && eol <= limit + 1) {
      request_line_ = seen.substr(0, eol);
      return read_header();
    }
    if (seen.size() > limit + 1) {
      started_ms_ = now_ms();
      return fail(414, "the request line is longer than " + std::to_string(limit) + " bytes");
    }
    stream_.async_read_some(buffer_.prepare(std::max<size_t>(4096, limit + 2 - seen.size())),
                            [self = shared_from_this()](error_code ec, size_t n) {
                              if (ec) return self->read_failed(ec);
                              self->buffer_.commit(n);
                              self->read_request_line();
                            });
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(core_->options.max_header_bytes));
    parser_->body_limit(core_->options.max_body_bytes);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](error_code ec, size_t) { self->on_header(ec); });
  }

  void on_header(error_code ec) {
    if (ec) return read_failed(ec);
    started_ms_ = now_ms();
    const auto& req = parser_->get();
    method_ = std::string(std_view(req.method_string()));
    target_ = std::string(std_view(req.target()));
    client_keep_alive_ = req.keep_alive();
    if (!core_->options.cors_origins.empty()) {
      auto it = req.find(http::field::origin);  // assigned into the kept buffer: no allocation per request
      origin_.assign(it == req.end() ? std::string_view() : std_view(it->value()));
    }
    if (reject_) {
      core_->metrics.connection_rejected();
      return fail(503, "too many open connections", {{"Retry-After", "1"}});
    }
    if (req.version() != 11 && req.version() != 10) return fail(505, "HTTP/1.0 or HTTP/1.1 only");
    if (parser_->is_done()) return answer();
    arm_deadline(core_->options.body_timeout);
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](error_code ec, size_t) {
      if (ec) return self->read_failed(ec);
      self->answer();
    });
  }

  void read_failed(error_code ec) {
    if (started_ms_ == 0) started_ms_ = now_ms();
    if (ec == net::error::operation_aborted && timed_out_) {
      // Part of a request came, too slowly (a byte a second): say why.
      if (buffer_.size() == 0 && !(parser_ && parser_->got_some())) return close_now();
      return fail(408, "the request was not received in time");
    }
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
        ec == net::error::operation_aborted) {
      return close_now();
    }
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      return fail(431, "the request header is larger than " + std::to_string(core_->options.max_header_bytes) + " bytes");
    }
    if (ec == http::error::body_limit) {
      return fail(413, "the request body is larger than " + std::to_string(core_->options.max_body_bytes) + " bytes");
    }
    if (ec == http::error::bad_version && names_other_version(request_line_)) {
      return fail(505, "HTTP/1.0 or HTTP/1.1 only");
    }
    return fail(400, "malformed request: " + ec.message());
  }

  // An error found by the transport: answer it and close the connection.
  void fail(unsigned status, const std::string& message, std::vector<std::pair<std::string, std::string>> headers = {}) {
    disarm_deadline();
    state_ = State::kAnswering;
    ApiResponse r = Api::error(status, message);
    for (auto& h : headers) r.headers.push_back(std::move(h));
    if (method_.empty()) method_ = "-";
    send(std::move(r), true);
  }

  void answer() {
    state_ = State::kAnswering;
    disarm_deadline();
    const auto& req = parser_->get();
    if (req.method() == http::verb::options && !core_->options.cors_origins.empty()) {
      ApiResponse r;
      r.status = 204;
      r.content_type.clear();
      r.headers = {{"Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE"},
                   {"Access-Control-Allow-Headers", "Authorization, Content-Type"},
                   {"Access-Control-Max-Age", "600"}};
      return send(std::move(r), false);
    }
    // Admission: past max_pending requests waiting for a search thread, the
    // server is saturated and says so at once.
    if (core_->pending.fetch_add(1) >= core_->options.max_pending) {
      core_->pending.fetch_sub(1);
      ApiResponse r = Api::error(503, "the server is saturated; retry shortly");
      r.headers.emplace_back("Retry-After", "1");
      return send(std::move(r), false);
    }
    request_ = parser_->release();
    const bool write = request_.method() == http::verb::post || request_.method() == http::verb::put ||
                       request_.method() == http::verb::delete_;
    auto& pool = write ? core_->write_pool : core_->search_pool;
    net::post(pool, [self = shared_from_this(), guard = net::make_work_guard(stream_.get_executor())] {
      const auto& req = self->request_;
      auto header = [&req](http::field f) {
        auto it = req.find(f);
        return it == req.end() ? std::string_view() : std_view(it->value());
      };
      ApiRequest api_request{std_view(req.method_string()), std_view(req.target()), req.body(),
                             header(http::field::authorization), header(http::field::content_type)};
      ApiResponse response = self->core_->api.handle(api_request);
      self->core_->pending.fetch_sub(1);
      net::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        self->send(std::move(response), false);
      });
    });
  }

  void send(ApiResponse r, bool close) {
    const bool head = method_ == "HEAD";
    const bool keep_alive = !close && !draining_ && !core_->draining && client_keep_alive_;
    response_ = {};
    response_.version(11);
    response_.result(r.status);
    response_.set(http::field::server, "fts-serve");
    if (!r.content_type.empty()) response_.set(http::field::content_type, r.content_type);
    response_.set("X-Content-Type-Options", "nosniff");
    for (auto& [name, value] : r.headers) response_.set(name, value);
    if (!core_->options.cors_origins.empty()) {
      const std::string_view allowed = allowed_origin(core_->options.cors_origins, origin_);
      if (!allowed.empty()) {
        response_.set(http::field::access_control_allow_origin, beast::string_view(allowed.data(), allowed.size()));
      }
      response_.set(http::field::vary, "Origin");
    }
    body_bytes_ = r.body.size();
    status_ = r.status;
    if (head) {
      response_.content_length(r.body.size());
    } else {
      response_.body() = std::move(r.body);
      response_.prepare_payload();
    }
    response_.keep_alive(keep_alive);
    stream_.expires_after(core_->options.write_timeout);
    http::async_write(stream_, response_, [self = shared_from_this(), keep_alive](error_code ec, size_t) {
      self->written(ec, keep_alive);
    });
  }

  void written(error_code ec, bool keep_alive) {
    const double ms = now_ms() - started_ms_;
    core_->metrics.record(status_, ms);
    core_->log.write({remote_, method_, target_, status_, body_bytes_, ms});
    stream_.expires_never();  // reads keep their own deadline_
    if (ec) return close_now();  // the client went away mid-response
    if (!keep_alive) return close_gracefully();
    request_ = {};
    method_.clear();
    target_.clear();
    origin_.clear();
    started_ms_ = 0;
    wait_for_request();
  }

  // After an error the client may still be sending (a 100 MB body): stop
  // writing, read and drop while bytes keep coming (up to kLingerTime), then
  // close, so it reads our answer rather than a connection reset.
  void close_gracefully() {
    state_ = State::kClosing;
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    buffer_.consume(buffer_.size());
    linger_until_ = now_ms() + static_cast<double>(kLingerTime.count());
    linger();
  }

  void linger() {
    stream_.expires_after(kLingerQuiet);
    stream_.async_read_some(buffer_.prepare(64 << 10), [self = shared_from_this()](error_code ec, size_t n) {
      self->lingered_ += n;
      if (ec || self->lingered_ > kLingerBytes || now_ms() > self->linger_until_) return self->close_now();
      self->buffer_.consume(self->buffer_.size());
      self->linger();
    });
  }

  void close_now() {
    state_ = State::kClosing;
    disarm_deadline();
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.close();
  }

  beast::tcp_stream stream_;
  net::steady_timer deadline_{stream_.get_executor()};
  uint64_t deadline_generation_ = 0;
  bool timed_out_ = false;
  beast::flat_buffer buffer_;
  std::shared_ptr<HttpServer::Core> core_;
  bool reject_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  State state_ = State::kReading;
  bool draining_ = false, client_keep_alive_ = false;
  std::string remote_ = "-", method_, target_, request_line_;
  std::string origin_;  // the request's Origin, read only when CORS is on
  double started_ms_ = 0, linger_until_ = 0;
  unsigned status_ = 0;
  size_t body_bytes_ = 0, lingered_ = 0;
};

}  // namespace

void HttpServer::Core::remove(Session* s) {
  std::lock_guard lk(sessions_mu);
  sessions.erase(s);
  // The last connection of a drain: nothing keeps run() any more.
  if (draining && sessions.empty()) {
    net::post(ioc, [self = shared_from_this()] { self->drain_timer.cancel(); });
  }
}

void HttpServer::Core::start() {
  signals.async_wait([self = shared_from_this()](error_code ec, int) {
    if (!ec) self->drain();
  });
  watch_index();
  accept();
}

void HttpServer::Core::accept() {
  acceptor.async_accept(net::make_strand(ioc), [self = shared_from_this()](error_code ec, tcp::socket socket) {
    if (self->draining) return;
    if (ec) {
      if (ec == net::error::operation_aborted) return;
      // Out of descriptors (EMFILE) or the like: try again shortly instead
      // of spinning on the error.
      self->accept_retry.expires_after(std::chrono::milliseconds(50));
      self->accept_retry.async_wait([self](error_code e) {
        if (!e) self->accept();
      });
      return;
    }
    size_t open;
    {
      std::lock_guard lk(self->sessions_mu);
      open = self->sessions.size();
    }
    bool reject = open >= self->options.max_connections;
    if (reject && self->rejecting.fetch_add(1) >= self->options.max_connections / 8 + 16) {
      // Too many being told "503" already: just close this one.
      self->rejecting.fetch_sub(1);
      self->metrics.connection_rejected();
      error_code ignored;
      socket.close(ignored);
    } else {
      std::make_shared<Session>(std::move(socket), self, reject)->start();
    }
    self->accept();
  });
}

void HttpServer::Core::watch_index() {
  reload_timer.expires_after(options.reload_interval);
  reload_timer.async_wait([self = shared_from_this()](error_code ec) {
    if (ec || self->draining) return;
    // Opening an index reads only headers, but it is file I/O: on a search
    // thread, not an io thread.
    net::post(self->search_pool, [self, guard = net::make_work_guard(self->ioc)] {
      uint64_t before = self->index.reloads();
      std::string why = self->index.reload_if_changed();
      if (!why.empty()) self->log.note("reload failed", why);
      if (self->index.reloads() != before) self->log.note("reloaded", self->index.dir());
      net::post(self->ioc, [self] {
        if (!self->draining) self->watch_index();
      });
    });
  });
}

void HttpServer::Core::drain() {
  if (draining.exchange(true)) return;
  log.note("draining");
  api.set_draining();
  error_code ec;
  acceptor.close(ec);
  signals.cancel(ec);
  reload_timer.cancel();
  accept_retry.cancel();
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lk(sessions_mu);
    for (Session* s : sessions) {
      if (auto p = s->weak_from_this().lock()) live.push_back(std::move(p));
    }
  }
  if (live.empty()) return;
  for (auto& s : live) s->drain_soon();
  drain_timer.expires_after(options.drain_timeout);
  drain_timer.async_wait([self = shared_from_this()](error_code e) {
    if (!e) {
      self->log.note("drain timeout", "closing the connections left");
      self->ioc.stop();
    }
  });
}

HttpServer::HttpServer(HttpOptions options, Api& api, IndexHolder& index, Metrics& metrics, AccessLog& log)
    : core_(std::make_shared<Core>(std::move(options), api, index, metrics, log)) {}

HttpServer::~HttpServer() {
  core_->search_pool.join();
  core_->write_pool.join();
}

uint16_t HttpServer::port() const { return core_->acceptor.local_endpoint().port(); }

void HttpServer::run() {
  core_->start();
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < std::max(1u, core_->options.threads); ++i) threads.emplace_back([this] { core_->ioc.run(); });
  core_->ioc.run();
  for (auto& t : threads) t.join();
  core_->search_pool.join();
  core_->write_pool.join();
}

void HttpServer::drain() {
  net::post(core_->ioc, [core = core_] { core->drain(); });
}

}  // namespace fts::serve
