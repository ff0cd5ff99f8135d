// SPDX-License-Identifier: MIT
// submit_to_icinga2 against servers that stall, and TLS files that would block: a CA or client
// certificate that is a FIFO is refused at once (libcurl, opening it by path, would wait outside
// every deadline); a server that takes the connection and never handshakes, one that handshakes
// and never answers, and one that trickles its answer each cost the deadline, and the reason names
// the URL and what the request was at; a client certificate and key handed over as bytes pass a
// server that requires one. The servers are threads of this test on the loopback (OpenSSL), with
// a CA and certificates the openssl command makes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "products/icinga2_api.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::test;
using Clock = std::chrono::steady_clock;

namespace icinga2_api_test {

struct Certificates {
  std::string ca, cert, key;
  std::string client_cert, client_key;  // a client's, signed by the same CA
};

// A CA and a server certificate it signs for 127.0.0.1 (all empty when the openssl command
// cannot make them).
Certificates make_certificates(const TempDir& dir) {
  const Certificates made{dir / "ca.crt", dir / "server.crt", dir / "server.key",
                          dir / "client.crt", dir / "client.key"};
  const std::string ca_key = dir / "ca.key", csr = dir / "server.csr", ext = dir / "san.ext";
  const std::string client_csr = dir / "client.csr";
  write_text(ext, "subjectAltName=IP:127.0.0.1\n");
  const std::vector<std::vector<std::string>> steps = {
      {"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out",
       made.ca, "-days", "2", "-subj", "/CN=test-ca"},
      {"openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", made.key, "-out", csr, "-subj",
       "/CN=127.0.0.1"},
      {"openssl", "x509", "-req", "-in", csr, "-CA", made.ca, "-CAkey", ca_key, "-CAcreateserial",
       "-out", made.cert, "-days", "2", "-extfile", ext},
      {"openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", made.client_key, "-out",
       client_csr, "-subj", "/CN=ibpm-sweep"},
      {"openssl", "x509", "-req", "-in", client_csr, "-CA", made.ca, "-CAkey", ca_key,
       "-CAcreateserial", "-out", made.client_cert, "-days", "2"}};
  for (const auto& step : steps)
    if (run_process(step, {{}, Stderr::merged}).exit_code != 0) return {};
  REQUIRE(::chmod(made.key.c_str(), 0600) == 0);
  REQUIRE(::chmod(made.client_key.c_str(), 0600) == 0);
  return made;
}

// What the server does with a connection.
enum class Behaviour {
  never_handshake,  // the kernel takes the connection; nothing accepts it
  never_answer,     // the TLS handshake, the request read, then silence
  trickle,          // an answer of a megabyte announced, sent a byte every 50 ms
};

// Whether the server's handshake requires a client certificate its CA signed.
enum class ClientCertificate { optional, required };

// A server on a loopback port, its connections served by a thread until it goes.
class StallingServer {
 public:
  StallingServer(Behaviour behaviour, const Certificates& certificates,
                 ClientCertificate client = ClientCertificate::optional)
      : behaviour_(behaviour) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof addr;
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&addr), size) == 0);
    REQUIRE(::listen(listener_, 16) == 0);
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &size) == 0);
    port_ = ntohs(addr.sin_port);
    if (behaviour == Behaviour::never_handshake) return;
    context_ = SSL_CTX_new(TLS_server_method());
    REQUIRE(context_);
    REQUIRE(SSL_CTX_use_certificate_chain_file(context_, certificates.cert.c_str()) == 1);
    REQUIRE(SSL_CTX_use_PrivateKey_file(context_, certificates.key.c_str(), SSL_FILETYPE_PEM) == 1);
    if (client == ClientCertificate::required) {
      REQUIRE(SSL_CTX_load_verify_locations(context_, certificates.ca.c_str(), nullptr) == 1);
      SSL_CTX_set_verify(context_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    thread_ = std::thread([this] { serve(); });
  }

  ~StallingServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (context_) SSL_CTX_free(context_);
    ::close(listener_);
  }

  StallingServer(const StallingServer&) = delete;
  StallingServer& operator=(const StallingServer&) = delete;

  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }

 private:
  bool readable(int fd) const {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 50) > 0;
  }

  void serve() {
    while (!stop_) {
      if (!readable(listener_)) continue;
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      SSL* ssl = SSL_new(context_);
      SSL_set_fd(ssl, fd);
      if (SSL_accept(ssl) == 1) answer(ssl, fd);
      SSL_free(ssl);
      ::close(fd);
    }
  }

  // Reads the request's head, then stalls as told until the client goes or the test ends.
  void answer(SSL* ssl, int fd) {
    std::string request;
    char buffer[4096];
    while (!stop_ && request.find("\r\n\r\n") == std::string::npos) {
      if (SSL_pending(ssl) == 0 && !readable(fd)) continue;
      const int n = SSL_read(ssl, buffer, sizeof buffer);
      if (n <= 0) return;
      request.append(buffer, static_cast<std::size_t>(n));
    }
    if (behaviour_ == Behaviour::trickle) {
      const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n";
      if (SSL_write(ssl, head.data(), static_cast<int>(head.size())) <= 0) return;
    }
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (behaviour_ == Behaviour::trickle && SSL_write(ssl, "x", 1) <= 0) return;
    }
  }

  Behaviour behaviour_;
  int listener_ = -1;
  int port_ = 0;
  SSL_CTX* context_ = nullptr;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

std::vector<products::PassiveResult> one_result() {
  return {{"sw01", "ib-node", plugin::State::ok, "IB NODE OK - sw01", {}}};
}

products::Icinga2Api api_for(const TempDir& dir, const std::string& url, const std::string& ca) {
  products::Icinga2Api api;
  api.url = url;
  api.ca_file = ca;
  api.user = "ibpm";
  api.password_file = dir / "password";
  write_text(api.password_file, "secret\n");
  REQUIRE(::chmod(api.password_file.c_str(), 0600) == 0);
  return api;
}

// The submission's reason, and how long it took.
struct Outcome {
  products::Icinga2Submission submission;
  double seconds = 0;
};

Outcome submit(const products::Icinga2Api& api, std::chrono::milliseconds time) {
  const auto start = Clock::now();
  Outcome outcome;
  outcome.submission = products::submit_to_icinga2(api, one_result(), 0, 1, start + time);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace icinga2_api_test

using namespace icinga2_api_test;

TEST_CASE("A CA or client certificate that is a FIFO is refused at once, never waited on") {
  TempDir dir("icinga2-fifo");
  if (find_program("openssl").empty()) IBPM_SKIP("no openssl command (apt-get install openssl)");
  const Certificates certificates = make_certificates(dir);
  REQUIRE_FALSE(certificates.ca.empty());
  const StallingServer server(Behaviour::never_handshake, certificates);  // a port that connects
  const std::string fifo = dir / "fifo.pem";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

  products::Icinga2Api by_ca = api_for(dir, server.url(), fifo);
  products::Icinga2Api by_cert = api_for(dir, server.url(), certificates.ca);
  by_cert.user.clear();
  by_cert.password_file.clear();
  by_cert.cert_file = fifo;
  by_cert.key_file = certificates.key;
  for (const products::Icinga2Api& api : {by_ca, by_cert}) {
    // In a child, so that libcurl blocked on the FIFO fails the case rather than hangs it.
    const ChildOutcome child = run_bounded(
        [&] {
          const Outcome outcome = submit(api, std::chrono::seconds(3));
          return outcome.submission.reason + " | " + std::to_string(outcome.seconds);
        },
        {.seconds = 10});
    INFO(child.message);
    REQUIRE(child.kind == ChildOutcome::Kind::returned);
    CHECK(child.message.rfind(fifo + ": not a regular file | ", 0) == 0);
    CHECK(std::stod(child.message.substr(child.message.find(" | ") + 3)) < 1);
  }
}

TEST_CASE("An API that stalls is named with what the request was at when the time ran out") {
  TempDir dir("icinga2-stall");
  if (find_program("openssl").empty()) IBPM_SKIP("no openssl command (apt-get install openssl)");
  const Certificates certificates = make_certificates(dir);
  REQUIRE_FALSE(certificates.ca.empty());
  const auto time = std::chrono::milliseconds(1500);

  const auto stalled = [&](Behaviour behaviour) {
    const StallingServer server(behaviour, certificates);
    const Outcome outcome = submit(api_for(dir, server.url(), certificates.ca), time);
    INFO(outcome.submission.reason);
    CHECK(outcome.submission.delivered == 0);
    CHECK(outcome.submission.not_delivered == 1);
    CHECK(outcome.seconds < 3);
    const std::string named = server.url() + ": no time left (the check's timeout) ";
    CHECK(outcome.submission.reason.rfind(named, 0) == 0);
    return outcome.submission.reason.substr(
        std::min(named.size(), outcome.submission.reason.size()));
  };
  CHECK(stalled(Behaviour::never_handshake) == "in the TLS handshake");
  CHECK(stalled(Behaviour::never_answer) == "waiting for the answer to sw01!ib-node");
  const std::string trickled = stalled(Behaviour::trickle);
  CHECK(trickled.rfind("reading the answer to sw01!ib-node (", 0) == 0);
  CHECK(trickled.ends_with(" bytes so far)"));

  // A server that requires a client certificate: the one handed over as bytes, with its key, gets
  // through the handshake (the request then waits); without one the handshake fails.
  const StallingServer strict(Behaviour::never_answer, certificates, ClientCertificate::required);
  products::Icinga2Api by_cert = api_for(dir, strict.url(), certificates.ca);
  by_cert.user.clear();
  by_cert.password_file.clear();
  by_cert.cert_file = certificates.client_cert;
  by_cert.key_file = certificates.client_key;
  CHECK(submit(by_cert, time).submission.reason ==
        strict.url() +
            ": no time left (the check's timeout) waiting for the answer to sw01!ib-node");
  // (A server of its own: each serves one connection at a time.)
  const StallingServer stricter(Behaviour::never_answer, certificates, ClientCertificate::required);
  const std::string refused =
      submit(api_for(dir, stricter.url(), certificates.ca), time).submission.reason;
  INFO(refused);
  CHECK(refused.rfind(stricter.url() + ": ", 0) == 0);
  CHECK(refused.find("no time left") == std::string::npos);
}
