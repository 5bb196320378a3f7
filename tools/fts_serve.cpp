// fts-serve: an HTTP/JSON search server with a search page.
//   fts-serve --index DIR [--listen 127.0.0.1:8080] [--threads N] [options]
//   fts-serve --index DIR --writable --token-file FILE   (POST /docs, DELETE /docs, POST /commit)
// Prints "listening on http://HOST:PORT/" on stdout once it accepts
// connections; SIGTERM drains in-flight requests and exits 0.
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/core.h>

#include "common/cli.h"
#include "engine/fts.h"
#include "serve/access_log.h"
#include "serve/bearer_token.h"
#include "serve/cors.h"
#include "serve/doc_writer.h"
#include "serve/api.h"
#include "serve/http_server.h"
#include "serve/index_holder.h"
#include "serve/metrics.h"
#include "serve/write_api.h"

namespace po = boost::program_options;
using namespace fts;

namespace {

constexpr const char* kTool = "fts-serve";

// "HOST:PORT", "[V6]:PORT" or ":PORT" (loopback).
void parse_listen(const std::string& text, serve::HttpOptions& o) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos) throw po::error("--listen takes HOST:PORT, not '" + text + "'");
  std::string host = text.substr(0, colon), port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (!host.empty()) o.host = host;
  size_t used = 0;
  unsigned long p = 0;
  try {
    p = std::stoul(port, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (port.empty() || used != port.size() || p > 65535) throw po::error("--listen: bad port '" + port + "'");
  o.port = static_cast<uint16_t>(p);
}

}  // namespace

int main(int argc, char** argv) {
  serve::HttpOptions http;
  serve::ApiLimits limits;
  std::string dir, access_log, token_file;
  size_t cache_mb = 64, writer_ram_mb = 256;
  bool writable = false;
  po::options_description named("options");
  auto ms = [](std::chrono::milliseconds& d) {
    return po::value<long>()->default_value(d.count())->notifier([&d](long v) { d = std::chrono::milliseconds(v); });
  };
  // clang-format off
  named.add_options()
    ("help,h", "this help")
    ("index", po::value<std::string>(&dir), "index directory")
    ("listen", po::value<std::string>()->default_value("127.0.0.1:8080"), "HOST:PORT to listen on (port 0: any free port)")
    ("threads", po::value<unsigned>(&http.threads)->default_value(std::max(1u, std::thread::hardware_concurrency())),
     "io threads, and as many search threads")
    ("cors", po::value<std::vector<std::string>>(&http.cors_origins),
     "allow ORIGIN (scheme://host[:port], e.g. chrome-extension://ID, or *) to call the API from a browser; repeat for several")
    ("access-log", po::value<std::string>(&access_log)->default_value("-"), "FILE, - for stderr, or none")
    ("cache-mb", po::value<size_t>(&cache_mb)->default_value(cache_mb), "filter cache size")
    ("writable", po::bool_switch(&writable), "take writes (POST /docs, DELETE /docs, POST /commit); needs --token-file")
    ("token-file", po::value<std::string>(&token_file), "FILE holding the bearer token writes must present")
    ("writer-ram-mb", po::value<size_t>(&writer_ram_mb)->default_value(writer_ram_mb), "the writer's in-memory budget")
    ("max-connections", po::value<size_t>(&http.max_connections)->default_value(http.max_connections), "open connections; past it 503")
    ("max-pending", po::value<size_t>(&http.max_pending)->default_value(http.max_pending), "requests waiting for a search thread; past it 503")
    ("max-request-line", po::value<size_t>(&http.max_request_line)->default_value(http.max_request_line), "bytes; past it 414")
    ("max-header-bytes", po::value<size_t>(&http.max_header_bytes)->default_value(http.max_header_bytes), "bytes; past it 431")
    ("max-body-bytes", po::value<size_t>(&http.max_body_bytes)->default_value(http.max_body_bytes), "bytes; past it 413")
    ("header-timeout-ms", ms(http.header_timeout), "time to send a request header; past it 408 and close")
    ("idle-timeout-ms", ms(http.idle_timeout), "keep-alive wait for the next request")
    ("body-timeout-ms", ms(http.body_timeout), "time to send a request body")
    ("write-timeout-ms", ms(http.write_timeout), "time for a client to take a response")
    ("drain-timeout-ms", ms(http.drain_timeout), "on SIGTERM, how long in-flight requests may finish")
    ("reload-interval-ms", ms(http.reload_interval), "how often to look for a new commit")
    ("time-budget-ms", po::value<double>(&limits.time_budget_ms)->default_value(limits.time_budget_ms), "per search; past it 504")
    ("max-limit", po::value<size_t>(&limits.max_limit)->default_value(limits.max_limit), "largest limit=")
    ("max-offset", po::value<size_t>(&limits.max_offset)->default_value(limits.max_offset), "largest offset=")
    ("max-query-bytes", po::value<size_t>(&limits.max_query_bytes)->default_value(limits.max_query_bytes), "longest q=")
    ("max-query-words", po::value<size_t>(&limits.max_query_words)->default_value(limits.max_query_words), "most words in q=");
  // clang-format on
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(named).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: fts-serve --index DIR [options]\n" << named;
      return cli::kOk;
    }
    po::notify(vm);
    if (dir.empty()) throw po::error("--index DIR is required");
    parse_listen(vm["listen"].as<std::string>(), http);
    if (http.threads == 0) throw po::error("--threads must be at least 1");
    for (const std::string& origin : http.cors_origins) {
      if (std::string why = serve::cors_origin_error(origin); !why.empty()) throw po::error("--cors: " + why);
    }
    if (access_log == "none") access_log.clear();
    if (writable && token_file.empty()) throw po::error("--writable needs --token-file FILE (the bearer token writes present)");
    if (!writable && !token_file.empty()) throw po::error("--token-file is only for --writable");
  } catch (const po::error& e) {
    cli::print_error(kTool, e.what());
    return cli::kUsageError;
  }

  try {
    const std::string token = writable ? serve::read_token_file(token_file) : "";
    serve::AccessLog log(access_log);
    serve::IndexHolder index(dir, cache_mb << 20);
    // The writer holds the index lock for the server's life (LockError,
    // naming the holder, when another writer has it).
    std::unique_ptr<serve::DocWriter> writer;
    std::unique_ptr<serve::WriteApi> writes;
    if (writable) {
      IndexWriterOptions options;
      options.ram_mb = writer_ram_mb;
      options.threads = 1;  // the write thread; searches keep the cores
      writer = std::make_unique<serve::DocWriter>(index, options);
      writes = std::make_unique<serve::WriteApi>(*writer, token);
    }
    serve::Metrics metrics;
    serve::Api api(index, metrics, limits, writes.get());
    serve::HttpServer server(http, api, index, metrics, log);
    std::string where = http.host.find(':') == std::string::npos ? http.host : "[" + http.host + "]";
    fmt::print("fts-serve: listening on http://{}:{}/ ({} docs, {} threads{})\n", where, server.port(),
               index.current()->doc_count(), http.threads, writable ? ", writable" : "");
    std::fflush(stdout);
    log.note("listening", fmt::format("{}:{}", where, server.port()));
    server.run();
    log.note("stopped");
    return cli::kOk;
  } catch (const std::bad_alloc&) {
    cli::print_error(kTool, "out of memory");
  } catch (const std::exception& e) {
    cli::print_error(kTool, e.what());
  }
  return cli::kRuntimeError;
}
