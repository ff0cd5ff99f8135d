// SPDX-License-Identifier: MIT

#include "mad/umad_port.hpp"

#include <endian.h>
#include <infiniband/umad.h>

#include <cstring>

namespace ibpm::mad {

namespace {

std::string requested(const std::string& ca, int port) {
  return (ca.empty() ? std::string("the first HCA") : "HCA " + ca) +
         (port == 0 ? std::string(", first active port") : " port " + std::to_string(port));
}

}  // namespace

UmadPort::UmadPort(const std::string& ca, int port) {
  if (umad_init() < 0)
    throw MadError("cannot initialise libibumad (is the ib_umad module loaded?)");
  const char* ca_arg = ca.empty() ? nullptr : ca.c_str();

  umad_port_t info{};
  if (umad_get_port(ca_arg, port, &info) < 0)
    throw MadError("no usable InfiniBand port (" + requested(ca, port) + ")");
  ca_name_ = info.ca_name;
  port_number_ = info.portnum;
  lid_ = info.base_lid;
  sm_lid_ = info.sm_lid;
  port_guid_ = be64toh(info.port_guid);
  umad_release_port(&info);

  fd_ = umad_open_port(ca_name_.c_str(), port_number_);
  if (fd_ < 0)
    throw MadError("cannot open " + describe() + ": " + std::strerror(-fd_) +
                   " (permission on /dev/infiniband/umad*?)");
  subnet_agent_ = umad_register(fd_, static_cast<int>(MgmtClass::subnet), 1, 0, nullptr);
  performance_agent_ = umad_register(fd_, static_cast<int>(MgmtClass::performance), 1, 0, nullptr);
  // No RMPP: the SA's first segment is all we read (SMInfoRecord tables fit in one).
  subnet_admin_agent_ =
      umad_register(fd_, static_cast<int>(MgmtClass::subnet_admin), 2, 0, nullptr);
  if (subnet_agent_ < 0 || performance_agent_ < 0 || subnet_admin_agent_ < 0) {
    umad_close_port(fd_);
    throw MadError("cannot register MAD agents on " + describe());
  }
}

UmadPort::~UmadPort() {
  if (fd_ >= 0) umad_close_port(fd_);  // also unregisters the agents
}

int UmadPort::agent(MgmtClass mgmt_class) const {
  switch (mgmt_class) {
    case MgmtClass::subnet:
      return subnet_agent_;
    case MgmtClass::subnet_admin:
      return subnet_admin_agent_;
    case MgmtClass::performance:
      break;
  }
  return performance_agent_;
}

std::string UmadPort::describe() const {
  return ca_name_ + " port " + std::to_string(port_number_);
}

}  // namespace ibpm::mad
