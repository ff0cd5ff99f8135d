// SPDX-License-Identifier: MIT

#include "mad/replay_source.hpp"

#include <pcap/pcap.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>

#include "mad/ib_frame.hpp"
#include "mad/mad_names.hpp"
#include "mad/pcap_library.hpp"

namespace ibpm::mad {

namespace {

constexpr std::uint8_t kResponseBit = 0x80;

struct PcapCloser {
  void operator()(pcap_t* pcap) const { pcap_library().close(pcap); }
};

// The time libpcap read for a packet (opened at nanosecond precision: tv_usec holds nanoseconds).
std::chrono::system_clock::time_point packet_time(const pcap_pkthdr& header) {
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::seconds(header.ts.tv_sec) + std::chrono::nanoseconds(header.ts.tv_usec)));
}

}  // namespace

ReplaySource::Key replay_key(unsigned lid, MgmtClass mgmt_class, std::uint8_t method,
                             std::uint16_t attribute, std::uint32_t modifier,
                             std::uint64_t component_mask, const std::uint8_t* payload) {
  ReplaySource::Key key;
  key.lid = lid;
  key.mgmt_class = static_cast<std::uint8_t>(mgmt_class);
  key.method = method;
  key.attribute = attribute;
  key.modifier = modifier;
  const bool get = method == static_cast<std::uint8_t>(MadMethod::get);
  if (get && mgmt_class == MgmtClass::subnet) return key;  // the modifier says it all
  if (get && mgmt_class == MgmtClass::performance) {
    key.payload[1] = payload[1];  // PortSelect
    return key;
  }
  if (mgmt_class == MgmtClass::subnet_admin) key.component_mask = component_mask;
  std::copy_n(payload, key.payload.size(), key.payload.begin());
  return key;
}

std::string describe_query(const MadQuery& query) {
  const auto klass = static_cast<std::uint8_t>(query.mgmt_class);
  std::string text = attribute_name(klass, query.attribute) + " " +
                     method_name(static_cast<std::uint8_t>(query.method)) + " to LID " +
                     std::to_string(query.lid);
  if (query.mgmt_class == MgmtClass::performance && query.attribute != 0x0001)
    text += ", port " + std::to_string(query.data[1]);
  else if (query.mgmt_class == MgmtClass::subnet && query.attribute == 0x0015)
    text += ", port " + std::to_string(query.modifier & 0xff);
  else if (query.modifier != 0)
    text += ", modifier " + std::to_string(query.modifier);
  return text;
}

ReplaySource::ReplaySource(const std::string& path) : path_(path) {
  const std::string named = "--replay " + path + ": ";
  char error[PCAP_ERRBUF_SIZE] = "";
  const std::unique_ptr<pcap_t, PcapCloser> pcap(pcap_library().open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error));
  if (!pcap) throw MadError(named + error);
  const int linktype = pcap_library().datalink(pcap.get());
  if (linktype != kLinktypeErf) {
    const char* name = pcap_library().datalink_val_to_name(linktype);
    throw MadError(named + "link type " + std::to_string(linktype) + " (" +
                   (name ? name : "unknown") + "), not ERF (" + std::to_string(kLinktypeErf) +
                   "): not a --record recording");
  }
  // The requests whose answer has not come yet, by the low 32 bits of their transaction id (the
  // engine's; the kernel sets the high ones on the way back); and per key, the tries made since
  // its last answer.
  std::map<std::uint32_t, Key> asked;
  std::map<Key, int> tries;
  // The same for directed-route SMPs: by transaction id, the outcome their answer goes into.
  std::map<std::uint32_t, std::pair<DrSmpKey, RecordedAnswer*>> smp_asked;
  bool lid_routed_seen = false;  // the local LID is the source of the first LID-routed request
  std::size_t number = 0;
  for (;;) {
    pcap_pkthdr* header = nullptr;
    const u_char* bytes = nullptr;
    const int read = pcap_library().next_ex(pcap.get(), &header, &bytes);
    if (read == PCAP_ERROR_BREAK) break;  // the end of the file
    ++number;
    if (read != 1)
      throw MadError(named + "packet " + std::to_string(number) + ": " +
                     pcap_library().geterr(pcap.get()));
    const std::string at = named + "packet " + std::to_string(number) + " ";
    if (header->caplen != header->len) throw MadError(at + "was cut when recorded");
    const auto frame = parse_frame({bytes, header->caplen});
    if (!frame) throw MadError(at + "is not an InfiniBand MAD (ERF record, LRH, BTH, DETH)");
    const std::uint8_t* mad = frame->mad.data();
    if (frame->mad.size() < kMadHeaderSize) throw MadError(at + "holds no whole MAD header");
    const auto klass = static_cast<MgmtClass>(mad[1]);
    const std::uint8_t method = mad[3];
    const std::uint32_t tid = load_be32(mad + 12);
    const std::size_t offset = data_offset(klass);
    last_time_ = packet_time(*header);
    if (is_directed_route(mad)) {
      if ((method & kResponseBit) == 0) {
        if (frame->mad.size() < kDrSmpRequestSize)
          throw MadError(at + "holds a directed-route SMP shorter than its initial path");
        ++requests_;
        const auto resent = smp_asked.find(tid);
        const DrSmpKey key = dr_smp_key(mad);
        // libibmad sends a try again under the same transaction id: one outcome for both.
        if (resent != smp_asked.end() && resent->second.first == key) continue;
        std::deque<RecordedAnswer>& outcomes = smp_outcomes_[key];
        outcomes.emplace_back().order = std::numeric_limits<std::uint64_t>::max();
        smp_asked[tid] = {key, &outcomes.back()};  // deque elements stay where they are
        continue;
      }
      const auto request = smp_asked.find(tid);
      if (request == smp_asked.end()) continue;  // an answer to nothing recorded
      RecordedAnswer& answer = *request->second.second;
      smp_asked.erase(request);
      answer.answered = true;
      std::copy_n(mad, std::min(answer.mad.size(), frame->mad.size()), answer.mad.begin());
      answer.slid = frame->address.slid;
      answer.src_qp = frame->address.src_qp;
      answer.order = number;
      ++answers_;
      continue;
    }
    if ((method & kResponseBit) == 0) {
      if (frame->mad.size() < offset + kMadRequestSize)
        throw MadError(at + "holds a request shorter than its payload");
      const std::uint64_t mask = frame->mad.size() >= 56 ? load_be64(mad + 48) : 0;
      const Key key = replay_key(frame->address.dlid, klass, method, load_be16(mad + 16),
                                 load_be32(mad + 20), mask, mad + offset);
      asked[tid] = key;
      ++tries[key];
      if (!lid_routed_seen) local_lid_ = frame->address.slid;
      lid_routed_seen = true;
      ++requests_;
      if (klass == MgmtClass::subnet_admin && sa_lid_ == 0) sa_lid_ = frame->address.dlid;
      continue;
    }
    const auto request = asked.find(tid);
    if (request == asked.end()) continue;  // an answer to nothing we asked: the engine drops it
    const Key key = request->second;
    asked.erase(request);
    int& key_tries = tries[key];
    if (key_tries == 0) continue;  // a late duplicate: the engine ignored it too
    MadReply reply;
    reply.status = ReplyStatus::answered;
    reply.mad_status = static_cast<std::uint16_t>(load_be16(mad + 4));
    reply.tries = key_tries;
    reply.received = packet_time(*header);
    if (frame->mad.size() > offset)
      std::copy_n(mad + offset, std::min(reply.data.size(), frame->mad.size() - offset),
                  reply.data.begin());
    outcomes_[key].push_back(reply);
    key_tries = 0;
    ++answers_;
  }
  // Tries that no answer followed: the query timed out when recorded.
  for (const auto& [key, count] : tries) {
    if (count == 0) continue;
    MadReply reply;
    reply.status = ReplyStatus::timed_out;
    reply.tries = count;
    outcomes_[key].push_back(reply);
  }
}

MadReply ReplaySource::answer(const MadQuery& query) {
  const Key key =
      replay_key(query.lid, query.mgmt_class, static_cast<std::uint8_t>(query.method),
                 query.attribute, query.modifier, query.component_mask, query.data.data());
  const auto found = outcomes_.find(key);
  if (found == outcomes_.end() || found->second.empty())
    throw ReplayMissing("--replay " + path_ + ": the recording has no answer to " +
                        describe_query(query));
  std::deque<MadReply>& queue = found->second;
  MadReply reply = queue.front();
  if (queue.size() > 1) queue.pop_front();  // the last answer stands for any later asking
  return reply;
}

ReplaySource::RecordedAnswer ReplaySource::answer_smp(const std::uint8_t* request) {
  const DrSmpKey key = dr_smp_key(request);
  const auto found = smp_outcomes_.find(key);
  if (found == smp_outcomes_.end() || found->second.empty())
    throw ReplayMissing("--replay " + path_ + ": the recording has no answer to " +
                        describe_dr_smp(key));
  std::deque<RecordedAnswer>& queue = found->second;
  RecordedAnswer answer = queue.front();
  if (queue.size() > 1) queue.pop_front();  // the last answer stands for any later asking
  return answer;
}

}  // namespace ibpm::mad
