// SPDX-License-Identifier: MIT

#include "products/icinga2_api.hpp"

#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>

#include "base/regular_file.hpp"
#include "base/secret_file.hpp"
#include "products/icinga2_request.hpp"

namespace ibpm::products {

namespace {

using Clock = std::chrono::steady_clock;

// Requests handed to libcurl at once: it queues them on its one connection.
constexpr std::size_t kRequestsQueued = 32;
// An answer longer than this is cut (only its reason is read).
constexpr std::size_t kAnswerKept = 16 * 1024;
// The largest CA file and client certificate read (a CA bundle of a few hundred certificates).
constexpr std::size_t kMaxCertificateBytes = 4 * 1024 * 1024;

// How far a request got, in order: what a request cut short by the deadline was waiting for.
enum class Stage { connecting, handshake, waiting, reading };

struct Transfer {
  CURL* easy = nullptr;
  Stage stage = Stage::connecting;
  std::size_t index = 0;
  std::string body;
  std::string answer;
  char error[CURL_ERROR_SIZE] = {};
};

std::size_t keep_answer(char* data, std::size_t size, std::size_t count, void* user) {
  auto* answer = static_cast<std::string*>(user);
  const std::size_t bytes = size * count;
  if (answer->size() < kAnswerKept)
    answer->append(data, std::min(bytes, kAnswerKept - answer->size()));
  return bytes;
}

// Follows how far a request got from what libcurl reports of it: TLS records (the handshake
// begun: the connection is made), the request's headers sent, the answer's received. libcurl
// gives no time for the TCP connection until the TLS handshake is done too.
int follow_stage(CURL*, curl_infotype type, char*, std::size_t, void* user) {
  auto* t = static_cast<Transfer*>(user);
  Stage reached = Stage::connecting;
  if (type == CURLINFO_SSL_DATA_OUT || type == CURLINFO_SSL_DATA_IN) reached = Stage::handshake;
  if (type == CURLINFO_HEADER_OUT || type == CURLINFO_DATA_OUT) reached = Stage::waiting;
  if (type == CURLINFO_HEADER_IN || type == CURLINFO_DATA_IN) reached = Stage::reading;
  t->stage = std::max(t->stage, reached);
  return 0;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "ibpm";
  return name;
}

void global_init() {
  static const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) throw std::runtime_error(curl_easy_strerror(code));
}

// What a status other than 2xx means for the operator.
std::string http_reason(long status, const std::string& said, const std::string& service) {
  std::string why = "HTTP " + std::to_string(status);
  if (status == 401) return why + " (the user or password is wrong)";
  if (status == 403 || said.rfind("Missing permission", 0) == 0)
    return why + " (the ApiUser lacks the permission actions/process-check-result)";
  return why + " for " + service + (said.empty() ? "" : ": " + said);
}

// A failure that every further request would share: stop.
bool ends_submission(CURLcode code, long status, const std::string& said) {
  return code != CURLE_OK || status == 401 || status == 403 ||
         said.rfind("Missing permission", 0) == 0;
}

struct Handles {
  CURLM* multi = nullptr;
  curl_slist* headers = nullptr;
  std::vector<std::unique_ptr<Transfer>> active;
  ~Handles() {
    for (auto& t : active) {
      curl_multi_remove_handle(multi, t->easy);
      curl_easy_cleanup(t->easy);
    }
    curl_slist_free_all(headers);
    if (multi) curl_multi_cleanup(multi);
  }
};

long milliseconds_left(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<long>(std::clamp<long long>(left, 1, std::numeric_limits<long>::max()));
}

// The TLS files, read by ibpm (bounded: a FIFO or a device is refused, never waited on outside
// every deadline) and handed to libcurl as bytes, never as paths it would open itself.
struct TlsFiles {
  std::string ca;    // PEM, empty: none given
  std::string cert;  // PEM, with key
  std::string key;
};

// A blob libcurl reads in place: the bytes outlive every request (Submission holds them).
void set_blob(CURL* e, CURLoption option, const std::string& bytes) {
  curl_blob blob{const_cast<char*>(bytes.data()), bytes.size(), CURL_BLOB_NOCOPY};
  curl_easy_setopt(e, option, &blob);
}

// The server verified against the CA file only (not the system's certificate authorities too),
// and its name against the URL's host.
void set_tls(CURL* e, const TlsFiles& files) {
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https");
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(e, CURLOPT_CAINFO, nullptr);
  curl_easy_setopt(e, CURLOPT_CAPATH, nullptr);
  if (!files.ca.empty()) set_blob(e, CURLOPT_CAINFO_BLOB, files.ca);
}

// A client certificate, or the ApiUser's name and password (basic authentication).
void set_credentials(CURL* e, const Icinga2Api& api, const TlsFiles& files,
                     const std::string& password) {
  if (!files.cert.empty()) {
    curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(e, CURLOPT_SSLCERT_BLOB, files.cert);
    curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
    set_blob(e, CURLOPT_SSLKEY_BLOB, files.key);
  }
  if (!api.user.empty()) {
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(e, CURLOPT_USERNAME, api.user.c_str());
    curl_easy_setopt(e, CURLOPT_PASSWORD, password.c_str());
  }
}

// One submission: the requests in flight, what came back so far, and why it stopped.
class Submission {
 public:
  Submission(const Icinga2Api& api, const std::vector<PassiveResult>& results, double start,
             double finish, Clock::time_point deadline)
      : api_(api), results_(results), start_(start), finish_(finish), deadline_(deadline) {}

  Icinga2Submission run() {
    try {
      prepare();
      while (fatal_.empty()) {
        while (next_ < results_.size() && h_.active.size() < kRequestsQueued) add(next_++);
        if (h_.active.empty()) break;
        if (Clock::now() >= deadline_) {
          fatal_ = no_time_left(furthest());
          break;
        }
        int running = 0;
        if (curl_multi_perform(h_.multi, &running) != CURLM_OK)
          throw std::runtime_error("libcurl: the transfers failed");
        const bool finished = take_finished();
        if (!fatal_.empty()) break;
        // A finished transfer frees its connection for a request waiting on it, which libcurl
        // starts on the next perform: without a wait, else it may wait out a whole poll.
        if (!finished)
          curl_multi_poll(h_.multi, nullptr, 0,
                          static_cast<int>(std::min(milliseconds_left(deadline_), 1000L)), nullptr);
      }
    } catch (const std::exception& e) {
      if (fatal_.empty()) fatal_ = e.what();
    }
    return outcome();
  }

 private:
  // The credentials (refused when others may read them), the URL and the multi handle.
  void prepare() {
    global_init();
    if (!api_.password_file.empty()) password_ = base::read_secret_file(api_.password_file);
    if (!api_.ca_file.empty())
      tls_.ca = base::read_regular_file(api_.ca_file, kMaxCertificateBytes);
    if (!api_.cert_file.empty()) {
      tls_.cert = base::read_regular_file(api_.cert_file, kMaxCertificateBytes);
      tls_.key = base::read_private_file(api_.key_file);
    }
    source_ = api_.check_source.empty() ? host_name() : api_.check_source;
    base_ = api_.url;
    while (!base_.empty() && base_.back() == '/') base_.pop_back();
    url_ = base_ + "/v1/actions/process-check-result";
    h_.multi = curl_multi_init();
    if (!h_.multi) throw std::runtime_error("libcurl: cannot start");
    // A few connections to the endpoint, each kept alive for every request it carries
    // (HTTP/1.1: one request in flight each); HTTP/2 multiplexes over the first.
    curl_multi_setopt(h_.multi, CURLMOPT_MAX_HOST_CONNECTIONS, std::max(api_.connections, 1L));
    curl_multi_setopt(h_.multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    h_.headers = curl_slist_append(h_.headers, "Accept: application/json");
    h_.headers = curl_slist_append(h_.headers, "Content-Type: application/json");
  }

  // Queues the request for results_[index].
  void add(std::size_t index) {
    auto t = std::make_unique<Transfer>();
    t->index = index;
    t->easy = curl_easy_init();
    if (!t->easy) throw std::runtime_error("libcurl: cannot make a request");
    t->body = process_check_result_body(results_[index], source_, start_, finish_);
    CURL* e = t->easy;
    const long left = milliseconds_left(deadline_);
    curl_easy_setopt(e, CURLOPT_URL, url_.c_str());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h_.headers);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(t->body.size()));
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    set_tls(e, tls_);
    set_credentials(e, api_, tls_, password_);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, left);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, left);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_answer);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t->answer);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
    // Only to follow_stage (nothing is printed): what the request was at if time runs out.
    curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, follow_stage);
    curl_easy_setopt(e, CURLOPT_DEBUGDATA, t.get());
    curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    if (curl_multi_add_handle(h_.multi, e) != CURLM_OK) {
      curl_easy_cleanup(e);
      throw std::runtime_error("libcurl: cannot queue a request");
    }
    h_.active.push_back(std::move(t));
  }

  // Counts the transfers that finished and frees them; true if any did.
  bool take_finished() {
    int queued = 0;
    bool finished = false;
    while (CURLMsg* message = curl_multi_info_read(h_.multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      Transfer* t = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &t);
      count_answer(*t, message->data.result);
      finished = true;
      curl_multi_remove_handle(h_.multi, t->easy);
      curl_easy_cleanup(t->easy);
      std::erase_if(h_.active, [&](const auto& a) { return a.get() == t; });
    }
    return finished;
  }

  // Delivered, a failure that ends the submission, or a refusal of this one result.
  void count_answer(const Transfer& t, CURLcode code) {
    long status = 0;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
    const std::string service = results_[t.index].host + "!" + results_[t.index].service;
    const std::string said = code == CURLE_OK ? api_answer_reason(t.answer) : "";
    if (code == CURLE_OK && status >= 200 && status < 300) {
      ++delivered_;
    } else if (code == CURLE_OPERATION_TIMEDOUT) {
      if (fatal_.empty()) fatal_ = no_time_left(t);  // libcurl's own timeout, the same deadline
    } else if (ends_submission(code, status, said)) {
      if (fatal_.empty())
        fatal_ = code != CURLE_OK
                     ? base_ + ": " + (t.error[0] ? std::string(t.error) : curl_easy_strerror(code))
                     : http_reason(status, said, service);
    } else if (!refused_++) {
      first_refusal_ = http_reason(status, said, service);
    }
  }

  // The request in flight that got furthest (the others queue behind it on the connection).
  const Transfer& furthest() const {
    const Transfer* found = h_.active.front().get();
    for (const auto& t : h_.active)
      if (t->stage > found->stage) found = t.get();
    return *found;
  }

  // "URL: no time left (the check's timeout) in the TLS handshake": what the deadline cut short.
  std::string no_time_left(const Transfer& t) const {
    std::string what = base_ + ": no time left (the check's timeout) ";
    const std::string service = results_[t.index].host + "!" + results_[t.index].service;
    switch (t.stage) {
      case Stage::connecting:
        return what + "while connecting";
      case Stage::handshake:
        return what + "in the TLS handshake";
      case Stage::waiting:
        return what + "waiting for the answer to " + service;
      case Stage::reading:
        break;
    }
    curl_off_t bytes = 0;
    curl_easy_getinfo(t.easy, CURLINFO_SIZE_DOWNLOAD_T, &bytes);
    return what + "reading the answer to " + service + " (" + std::to_string(bytes) +
           " bytes so far)";
  }

  Icinga2Submission outcome() const {
    Icinga2Submission out;
    out.delivered = delivered_;
    out.not_delivered = results_.size() - delivered_;
    if (!fatal_.empty())
      out.reason = fatal_;
    else if (refused_)
      out.reason =
          first_refusal_ + (refused_ > 1 ? " (the first of " + std::to_string(refused_) + ")" : "");
    return out;
  }

  const Icinga2Api& api_;
  const std::vector<PassiveResult>& results_;
  double start_, finish_;
  Clock::time_point deadline_;
  std::string password_, source_, base_, url_;
  TlsFiles tls_;  // before h_: its bytes outlive every request
  Handles h_;
  std::size_t next_ = 0;  // the next result to queue
  std::size_t delivered_ = 0;
  std::size_t refused_ = 0;
  std::string first_refusal_;
  std::string fatal_;  // why the submission stopped
};

}  // namespace

Icinga2Submission submit_to_icinga2(const Icinga2Api& api,
                                    const std::vector<PassiveResult>& results, double start,
                                    double finish, Clock::time_point deadline) {
  if (results.empty()) return {};
  return Submission(api, results, start, finish, deadline).run();
}

}  // namespace ibpm::products
