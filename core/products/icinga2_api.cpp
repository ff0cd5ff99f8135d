// SPDX-License-Identifier: MIT

#include "products/icinga2_api.hpp"

#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "base/secret_file.hpp"
#include "products/icinga2_request.hpp"

namespace ibpm::products {

namespace {

using Clock = std::chrono::steady_clock;

// Requests handed to libcurl at once: it queues them on its one connection.
constexpr std::size_t kRequestsQueued = 32;
// An answer longer than this is cut (only its reason is read).
constexpr std::size_t kAnswerKept = 16 * 1024;

struct Transfer {
  CURL* easy = nullptr;
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

}  // namespace

Icinga2Submission submit_to_icinga2(const Icinga2Api& api,
                                    const std::vector<PassiveResult>& results, double start,
                                    double finish, Clock::time_point deadline) {
  Icinga2Submission out;
  if (results.empty()) return out;
  const auto give_up = [&](const std::string& why) {
    out.not_delivered = results.size() - out.delivered;
    if (out.reason.empty()) out.reason = why;
    return out;
  };
  std::string password;
  try {
    global_init();
    if (!api.password_file.empty()) password = base::read_secret_file(api.password_file);
    if (!api.key_file.empty()) base::require_private_file(api.key_file);
  } catch (const std::exception& e) {
    return give_up(e.what());
  }
  const std::string source = api.check_source.empty() ? host_name() : api.check_source;
  std::string base = api.url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string url = base + "/v1/actions/process-check-result";

  Handles h;
  h.multi = curl_multi_init();
  if (!h.multi) return give_up("libcurl: cannot start");
  // A few connections to the endpoint, each kept alive for every request it carries (HTTP/1.1:
  // one request in flight each); HTTP/2 multiplexes over the first.
  curl_multi_setopt(h.multi, CURLMOPT_MAX_HOST_CONNECTIONS, std::max(api.connections, 1L));
  curl_multi_setopt(h.multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  h.headers = curl_slist_append(h.headers, "Accept: application/json");
  h.headers = curl_slist_append(h.headers, "Content-Type: application/json");

  std::size_t next = 0;
  std::string fatal;
  std::string first_refusal;
  std::size_t refused = 0;
  const auto add = [&](std::size_t index) {
    auto t = std::make_unique<Transfer>();
    t->index = index;
    t->easy = curl_easy_init();
    if (!t->easy) throw std::runtime_error("libcurl: cannot make a request");
    t->body = process_check_result_body(results[index], source, start, finish);
    CURL* e = t->easy;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h.headers);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(t->body.size()));
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    // The CA file only: not the system's certificate authorities too.
    curl_easy_setopt(e, CURLOPT_CAINFO, api.ca_file.empty() ? nullptr : api.ca_file.c_str());
    curl_easy_setopt(e, CURLOPT_CAPATH, nullptr);
    if (!api.cert_file.empty()) {
      curl_easy_setopt(e, CURLOPT_SSLCERT, api.cert_file.c_str());
      curl_easy_setopt(e, CURLOPT_SSLKEY, api.key_file.c_str());
    }
    if (!api.user.empty()) {
      curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
      curl_easy_setopt(e, CURLOPT_USERNAME, api.user.c_str());
      curl_easy_setopt(e, CURLOPT_PASSWORD, password.c_str());
    }
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<long long>(left, 1)));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::max<long long>(left, 1)));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_answer);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t->answer);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    if (curl_multi_add_handle(h.multi, e) != CURLM_OK) {
      curl_easy_cleanup(e);
      throw std::runtime_error("libcurl: cannot queue a request");
    }
    h.active.push_back(std::move(t));
  };

  try {
    while (fatal.empty()) {
      while (next < results.size() && h.active.size() < kRequestsQueued) add(next++);
      if (h.active.empty()) break;
      if (Clock::now() >= deadline) {
        fatal = "no time left (the check's timeout)";
        break;
      }
      int running = 0;
      if (curl_multi_perform(h.multi, &running) != CURLM_OK)
        throw std::runtime_error("libcurl: the transfers failed");
      int queued = 0;
      bool finished = false;
      while (CURLMsg* message = curl_multi_info_read(h.multi, &queued)) {
        if (message->msg != CURLMSG_DONE) continue;
        Transfer* t = nullptr;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &t);
        const CURLcode code = message->data.result;
        long status = 0;
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
        const std::string service = results[t->index].host + "!" + results[t->index].service;
        const std::string said = code == CURLE_OK ? api_answer_reason(t->answer) : "";
        if (code == CURLE_OK && status >= 200 && status < 300) {
          ++out.delivered;
        } else if (ends_submission(code, status, said)) {
          if (fatal.empty())
            fatal =
                code != CURLE_OK
                    ? base + ": " + (t->error[0] ? std::string(t->error) : curl_easy_strerror(code))
                    : http_reason(status, said, service);
        } else if (!refused++) {
          first_refusal = http_reason(status, said, service);
        }
        finished = true;
        curl_multi_remove_handle(h.multi, t->easy);
        curl_easy_cleanup(t->easy);
        std::erase_if(h.active, [&](const auto& a) { return a.get() == t; });
      }
      if (!fatal.empty()) break;
      // A finished transfer frees its connection for a request waiting on it, which libcurl
      // starts on the next perform: without a wait, else it may wait out a whole poll.
      if (finished) continue;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      curl_multi_poll(h.multi, nullptr, 0, static_cast<int>(std::clamp<long long>(left, 1, 1000)),
                      nullptr);
    }
  } catch (const std::exception& e) {
    if (fatal.empty()) fatal = e.what();
  }
  out.not_delivered = results.size() - out.delivered;
  if (!fatal.empty())
    out.reason = fatal;
  else if (refused)
    out.reason =
        first_refusal + (refused > 1 ? " (the first of " + std::to_string(refused) + ")" : "");
  return out;
}

}  // namespace ibpm::products
