# SPDX-License-Identifier: MIT
# The packages: `cpack` (or the `package` target) in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr makes ibpm_VERSION_ARCH.deb and, where rpmbuild is installed,
# ibpm-VERSION-1.ARCH.rpm, from the same install. The DEB's dependencies come from
# dpkg-shlibdeps, the RPM's from rpmbuild's ELF scan; the RPM's layout is RHEL's
# (packaging/rhel-layout.cmake). ibpm-sim and the benchmarks are not installed, so not packaged.
set(CPACK_PACKAGE_NAME ibpm)
set(CPACK_PACKAGE_VENDOR "ibpm maintainers")
set(CPACK_PACKAGE_CONTACT "ibpm maintainers <maintainers@users.noreply.a-seed-d1ee886d.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "InfiniBand fabric monitor: Nagios/Icinga checks and reports")
set(CPACK_PACKAGE_DESCRIPTION
    "check_ib_topology, check_ib_port, check_ib_node and check_ib_fabric are
Nagios/Icinga plugins that poll InfiniBand port counters, keep their history
in RRD files and judge error rates, utilization and link state against
thresholds. ibpm-locality, ibpm-map and ibpm-web turn the history into
traffic-locality reports, Graphviz health maps and a static dashboard;
ibpm-nagios-config writes Nagios 4 and Icinga 2 configuration for a fabric.
ibpm-draw draws the maps with Graphviz for ibpm-map and ibpm-web, which read
the RRD history and run it: no program links both librrd and Graphviz.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY ibpm)
# The packages install into /usr whatever the build's prefix; a build configured for another
# one is refused by packaging/prefix-check.cmake (its files name the configured paths).
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_INSTALL_PREFIX "/usr")
set(CPACK_IBPM_BUILD_PREFIX "${CMAKE_INSTALL_PREFIX}")
# /etc, /lib/systemd and /var are absolute destinations: install into the staging folder whole.
set(CPACK_SET_DESTDIR ON)
set(CPACK_STRIP_FILES ON)
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(STATUS "Packages: configure with -DCMAKE_INSTALL_PREFIX=/usr to make them "
                 "(now ${CMAKE_INSTALL_PREFIX})")
endif()

set(CPACK_GENERATOR DEB)
find_program(IBPM_RPMBUILD rpmbuild)
if(IBPM_RPMBUILD)
  list(APPEND CPACK_GENERATOR RPM)
endif()
set(ibpm_maintainer ${PROJECT_SOURCE_DIR}/packaging/maintainer)

# Debian
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# useradd and groupadd for the postinst; rrdcached for ibpm-rrdcached.service, which the units
# use; negate (host checks) and check_dummy (the freshness of passive switch services) from the
# Monitoring Plugins; node_exporter serves check_ib_fabric --openmetrics.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "passwd, rrdcached")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "monitoring-plugins-basic")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "nagios4-core | icinga2-bin, infiniband-diags, prometheus-node-exporter")
configure_file(${PROJECT_SOURCE_DIR}/packaging/debian/conffiles.in
               ${PROJECT_BINARY_DIR}/packaging/debian/conffiles @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${ibpm_maintainer}/postinst ${ibpm_maintainer}/prerm
    ${ibpm_maintainer}/postrm ${PROJECT_BINARY_DIR}/packaging/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# RPM
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_RELOCATABLE OFF)
set(CPACK_RPM_PACKAGE_LICENSE "MIT")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_REQUIRES_POST "shadow-utils")
# rrdcached for ibpm-rrdcached.service (RHEL's rrdtool package holds it).
set(CPACK_RPM_PACKAGE_REQUIRES "/usr/bin/rrdcached")
set(CPACK_RPM_POST_INSTALL_SCRIPT_FILE ${ibpm_maintainer}/postinst)
# %preun and %postun get the number of versions left: 0 on removal, as the scripts expect.
set(CPACK_RPM_PRE_UNINSTALL_SCRIPT_FILE ${ibpm_maintainer}/prerm)
set(CPACK_RPM_POST_UNINSTALL_SCRIPT_FILE ${ibpm_maintainer}/postrm)
set(CPACK_RPM_USER_FILELIST
    "%config(noreplace) /etc/ibpm/thresholds.conf"
    "%config(noreplace) /etc/ibpm/delegation.conf"
    "%config(noreplace) /etc/ibpm/ibpm.env")
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/lib/systemd /usr/lib/systemd/system /usr/lib64/nagios
    /usr/share/icinga2 /usr/share/icinga2/include /usr/share/icinga2/include/plugins-contrib.d)
# No /usr/lib/.build-id links: the file list is the install's, as in the DEB.
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none")
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/packaging/prefix-check.cmake
    ${PROJECT_SOURCE_DIR}/packaging/rhel-layout.cmake)

include(CPack)
