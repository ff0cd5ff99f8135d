// SPDX-License-Identifier: MIT
// The local HCA port that MADs leave from, opened through libibumad the way infiniband-diags
// opens it: -C names the HCA (empty = the first one), -P the port (0 = the first active one).
// Works unchanged under libumad2sim (ibsim), which intercepts the same calls.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ibpm::mad {

class MadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Management classes the engine sends to.
enum class MgmtClass : std::uint8_t {
  subnet = 0x01,        // LID-routed SMPs (NodeInfo, PortInfo)
  subnet_admin = 0x03,  // the SA (SMInfoRecord tables); answers of one segment only
  performance = 0x04,   // the PMA (ClassPortInfo, PortCounters, PortCountersExtended)
};

class UmadPort {
 public:
  // Throws MadError with a one-line reason ("cannot open HCA mlx5_0 port 1: ...").
  UmadPort(const std::string& ca, int port);
  ~UmadPort();
  UmadPort(const UmadPort&) = delete;
  UmadPort& operator=(const UmadPort&) = delete;

  int fd() const { return fd_; }
  int agent(MgmtClass mgmt_class) const;
  const std::string& ca_name() const { return ca_name_; }
  int port_number() const { return port_number_; }
  unsigned lid() const { return lid_; }
  // The master SM's LID as the port knows it (where the SA answers), 0 when none.
  unsigned sm_lid() const { return sm_lid_; }
  std::uint64_t port_guid() const { return port_guid_; }
  // "mlx5_0 port 1", for messages.
  std::string describe() const;

 private:
  int fd_ = -1;
  int subnet_agent_ = -1;
  int performance_agent_ = -1;
  int subnet_admin_agent_ = -1;
  std::string ca_name_;
  int port_number_ = 0;
  unsigned lid_ = 0;
  unsigned sm_lid_ = 0;
  std::uint64_t port_guid_ = 0;
};

}  // namespace ibpm::mad
