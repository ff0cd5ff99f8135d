// SPDX-License-Identifier: MIT
/*
 * The OpenSM event plugin of ibpm: every trap OpenSM forwards (OSM_EVENT_ID_TRAP) is handed to a
 * local listener as one AF_UNIX datagram, a fixed record laid out in core/events/trap_record.hpp
 * (magic "IBPMTRAP", version 1, 112 bytes, big-endian). Nothing else is done.
 *
 * OpenSM calls report() on its own threads, so nothing here ever waits: each record is sent with
 * sendto(MSG_DONTWAIT) to the socket's path (no connection kept: a listener that restarts is
 * found again by the next trap); one that cannot be sent (no listener, its queue full) is
 * counted and forgotten, never retried. OpenSM's log says when drops start, how many every
 * minute while they go on, and when records are delivered again; never once per trap.
 *
 * Every IBPM_HEARTBEAT_S seconds, and once when it is loaded, a thread of its own sends a
 * heartbeat record (flags bit 1, trap number 0, the interval in details bytes 0-1): a quiet
 * fabric and a plugin that is not there look alike otherwise. A heartbeat that cannot be sent
 * is not counted: only traps are.
 *
 * opensm.conf:
 *   event_plugin_name    ibpm_event_plugin          (OpenSM dlopens libibpm_event_plugin.so)
 *   event_plugin_options ibpm_socket=/run/ibpm-events/events.sock
 * The options string may hold other plugins' options too: the first token that starts with
 * "ibpm_socket=" names the socket; without one, /run/ibpm-events/events.sock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#define IBPM_DEFAULT_SOCKET "/run/ibpm-events/events.sock"
#define IBPM_OPTION "ibpm_socket="
#define IBPM_RECORD_SIZE 112
#define IBPM_RECORD_VERSION 1
#define IBPM_DROP_LOG_INTERVAL_NS (60LL * 1000 * 1000 * 1000)
#define IBPM_HEARTBEAT_S 30

struct ibpm_plugin {
	osm_log_t *log;
	int fd;
	struct sockaddr_un address;
	atomic_uint_fast32_t sequence; /* traps handed to report() */
	atomic_uint_fast32_t dropped;  /* records that could not be sent */
	atomic_bool dropping;          /* the last send failed */
	atomic_int_fast64_t last_drop_log_ns;
	pthread_t heartbeat;
	pthread_mutex_t lock;
	pthread_cond_t stop_signal;
	bool stopping; /* under lock */
	bool heartbeat_started;
};

static int64_t now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void put_be(uint8_t *at, unsigned size, uint64_t value)
{
	while (size-- > 0) {
		at[size] = value & 0xff;
		value >>= 8;
	}
}

/* The socket path named in `options`, or the default; copied into `address`. */
static int socket_path(const char *options, struct sockaddr_un *address)
{
	const char *path = IBPM_DEFAULT_SOCKET;
	size_t length = strlen(path);
	const char *p = options;

	while (p && *p) {
		size_t token;

		p += strspn(p, " \t,");
		token = strcspn(p, " \t,");
		if (token > strlen(IBPM_OPTION) &&
		    strncmp(p, IBPM_OPTION, strlen(IBPM_OPTION)) == 0) {
			path = p + strlen(IBPM_OPTION);
			length = token - strlen(IBPM_OPTION);
			break;
		}
		p += token;
	}
	if (length == 0 || length >= sizeof(address->sun_path))
		return -1;
	memset(address, 0, sizeof(*address));
	address->sun_family = AF_UNIX;
	memcpy(address->sun_path, path, length);
	return 0;
}

/* A heartbeat record: no trap, the plugin's word that it is loaded (see trap_record.hpp). */
static void send_heartbeat(struct ibpm_plugin *plugin)
{
	uint8_t record[IBPM_RECORD_SIZE];

	memset(record, 0, sizeof(record));
	memcpy(record, "IBPMTRAP", 8);
	put_be(record + 8, 2, IBPM_RECORD_VERSION);
	put_be(record + 10, 2, IBPM_RECORD_SIZE);
	record[12] = 2;
	put_be(record + 24, 8, (uint64_t)now_ns(CLOCK_REALTIME));
	put_be(record + 32, 4, atomic_load(&plugin->sequence));
	put_be(record + 36, 4, atomic_load(&plugin->dropped));
	put_be(record + 56, 2, IBPM_HEARTBEAT_S);
	(void)sendto(plugin->fd, record, sizeof(record), MSG_DONTWAIT | MSG_NOSIGNAL,
		     (const struct sockaddr *)&plugin->address, sizeof(plugin->address));
}

/* The heartbeat thread: one record now, then one every IBPM_HEARTBEAT_S until delete(). */
static void *heartbeats(void *data)
{
	struct ibpm_plugin *plugin = data;
	struct timespec next;

	pthread_mutex_lock(&plugin->lock);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!plugin->stopping) {
		send_heartbeat(plugin);
		next.tv_sec += IBPM_HEARTBEAT_S;
		while (!plugin->stopping &&
		       pthread_cond_timedwait(&plugin->stop_signal, &plugin->lock, &next) == 0)
			;
	}
	pthread_mutex_unlock(&plugin->lock);
	return NULL;
}

static void start_heartbeats(struct ibpm_plugin *plugin)
{
	pthread_condattr_t attributes;

	pthread_mutex_init(&plugin->lock, NULL);
	pthread_condattr_init(&attributes);
	pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
	pthread_cond_init(&plugin->stop_signal, &attributes);
	pthread_condattr_destroy(&attributes);
	plugin->stopping = false;
	plugin->heartbeat_started =
		pthread_create(&plugin->heartbeat, NULL, heartbeats, plugin) == 0;
	if (!plugin->heartbeat_started)
		OSM_LOG(plugin->log, OSM_LOG_ERROR,
			"ibpm: no heartbeat thread: the listener will say the plugin is gone\n");
}

static void stop_heartbeats(struct ibpm_plugin *plugin)
{
	if (plugin->heartbeat_started) {
		pthread_mutex_lock(&plugin->lock);
		plugin->stopping = true;
		pthread_cond_signal(&plugin->stop_signal);
		pthread_mutex_unlock(&plugin->lock);
		pthread_join(plugin->heartbeat, NULL);
	}
	pthread_cond_destroy(&plugin->stop_signal);
	pthread_mutex_destroy(&plugin->lock);
}

static void *ibpm_create(struct osm_opensm *osm)
{
	struct ibpm_plugin *plugin = calloc(1, sizeof(*plugin));

	if (!plugin)
		return NULL;
	plugin->log = &osm->log;
	if (socket_path(osm->subn.opt.event_plugin_options, &plugin->address) != 0) {
		OSM_LOG(plugin->log, OSM_LOG_ERROR,
			"ibpm: event_plugin_options: the ibpm_socket= path is empty or longer "
			"than %zu bytes\n", sizeof(plugin->address.sun_path) - 1);
		free(plugin);
		return NULL;
	}
	plugin->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (plugin->fd < 0) {
		OSM_LOG(plugin->log, OSM_LOG_ERROR, "ibpm: cannot create a socket: %s\n",
			strerror(errno));
		free(plugin);
		return NULL;
	}
	atomic_init(&plugin->sequence, 0);
	atomic_init(&plugin->dropped, 0);
	atomic_init(&plugin->dropping, false);
	atomic_init(&plugin->last_drop_log_ns, 0);
	OSM_LOG(plugin->log, OSM_LOG_INFO, "ibpm: handing traps to %s\n",
		plugin->address.sun_path);
	start_heartbeats(plugin);
	return plugin;
}

static void ibpm_delete(void *data)
{
	struct ibpm_plugin *plugin = data;

	if (!plugin)
		return;
	stop_heartbeats(plugin);
	OSM_LOG(plugin->log, OSM_LOG_INFO,
		"ibpm: %u traps seen, %u of them not handed to %s\n",
		(unsigned)atomic_load(&plugin->sequence),
		(unsigned)atomic_load(&plugin->dropped), plugin->address.sun_path);
	close(plugin->fd);
	free(plugin);
}

/* The record of core/events/trap_record.hpp for `notice`. */
static void encode(const ib_mad_notice_attr_t *notice, uint32_t sequence, uint32_t dropped,
		   uint8_t record[IBPM_RECORD_SIZE])
{
	const int generic = ib_notice_is_generic(notice);

	memset(record, 0, IBPM_RECORD_SIZE);
	memcpy(record, "IBPMTRAP", 8);
	put_be(record + 8, 2, IBPM_RECORD_VERSION);
	put_be(record + 10, 2, IBPM_RECORD_SIZE);
	record[12] = generic ? 1 : 0;
	record[13] = ib_notice_get_type(notice) & 0x7f;
	if (generic) {
		put_be(record + 14, 2, cl_ntoh16(notice->g_or_v.generic.trap_num));
		put_be(record + 16, 4, cl_ntoh32(ib_notice_get_prod_type(notice)) & 0xffffff);
	} else {
		put_be(record + 14, 2, cl_ntoh16(notice->g_or_v.vend.dev_id));
		put_be(record + 16, 4, cl_ntoh32(ib_notice_get_vend_id(notice)) & 0xffffff);
	}
	put_be(record + 20, 2, cl_ntoh16(notice->issuer_lid));
	put_be(record + 22, 2, cl_ntoh16(notice->toggle_count));
	put_be(record + 24, 8, (uint64_t)now_ns(CLOCK_REALTIME));
	put_be(record + 32, 4, sequence);
	put_be(record + 36, 4, dropped);
	memcpy(record + 40, &notice->issuer_gid, 16);
	memcpy(record + 56, notice->data_details.raw_data.details, 54);
}

static void note_drop(struct ibpm_plugin *plugin, int error)
{
	const uint32_t dropped = atomic_fetch_add(&plugin->dropped, 1) + 1;
	const int64_t now = now_ns(CLOCK_MONOTONIC);
	int64_t last = atomic_load(&plugin->last_drop_log_ns);

	if (!atomic_exchange(&plugin->dropping, true)) {
		atomic_store(&plugin->last_drop_log_ns, now);
		OSM_LOG(plugin->log, OSM_LOG_INFO,
			"ibpm: cannot hand traps to %s (%s): counting them as dropped "
			"(%u so far), never waiting\n",
			plugin->address.sun_path, strerror(error), (unsigned)dropped);
	} else if (now - last >= IBPM_DROP_LOG_INTERVAL_NS &&
		   atomic_compare_exchange_strong(&plugin->last_drop_log_ns, &last, now)) {
		OSM_LOG(plugin->log, OSM_LOG_INFO,
			"ibpm: still cannot hand traps to %s (%s): %u dropped so far\n",
			plugin->address.sun_path, strerror(error), (unsigned)dropped);
	}
}

static void ibpm_report(void *data, osm_epi_event_id_t event_id, void *event_data)
{
	struct ibpm_plugin *plugin = data;
	uint8_t record[IBPM_RECORD_SIZE];
	uint32_t sequence;

	if (event_id != OSM_EVENT_ID_TRAP || !plugin || !event_data)
		return;
	sequence = atomic_fetch_add(&plugin->sequence, 1) + 1;
	encode(event_data, sequence, atomic_load(&plugin->dropped), record);
	if (sendto(plugin->fd, record, sizeof(record), MSG_DONTWAIT | MSG_NOSIGNAL,
		   (const struct sockaddr *)&plugin->address, sizeof(plugin->address)) ==
	    (ssize_t)sizeof(record)) {
		if (atomic_exchange(&plugin->dropping, false))
			OSM_LOG(plugin->log, OSM_LOG_INFO,
				"ibpm: handing traps to %s again (%u dropped so far)\n",
				plugin->address.sun_path,
				(unsigned)atomic_load(&plugin->dropped));
		return;
	}
	note_drop(plugin, errno);
}

/* What OpenSM looks up (OSM_EVENT_PLUGIN_IMPL_NAME); it loads only a plugin of its own version. */
__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = ibpm_create,
	.delete = ibpm_delete,
	.report = ibpm_report,
};
