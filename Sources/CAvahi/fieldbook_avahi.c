/* libavahi-client, opened when serve first announces (include/CAvahi.h says why it is not linked).

   The declarations below are Avahi 0.8's stable API (libavahi-client.so.3 and the libavahi-common.so.3 it loads),
   written here because Avahi's headers cannot be included without linking it: opaque handles, and the values of the
   enumerations as avahi-client/client.h, avahi-client/publish.h and avahi-common/address.h number them. The
   announcement test (Tests/EndToEndTests/LANAnnouncementTests.swift) finds the service with avahi-browse. */
#include "CAvahi.h"

#include <CLibraryLoader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AvahiThreadedPoll AvahiThreadedPoll;
typedef struct AvahiPoll AvahiPoll;
typedef struct AvahiClient AvahiClient;
typedef struct AvahiEntryGroup AvahiEntryGroup;
typedef void (*AvahiClientCallback)(AvahiClient *client, int state, void *userdata);
typedef void (*AvahiEntryGroupCallback)(AvahiEntryGroup *group, int state, void *userdata);

enum { CLIENT_S_REGISTERING = 1, CLIENT_S_RUNNING = 2, CLIENT_S_COLLISION = 3, CLIENT_FAILURE = 100, CLIENT_CONNECTING = 101 };
enum { CLIENT_NO_FAIL = 2 };                               /* AvahiClientFlags */
enum { GROUP_ESTABLISHED = 2, GROUP_COLLISION = 3, GROUP_FAILURE = 4 };
enum { IF_UNSPEC = -1, PROTO_UNSPEC = -1 };
enum { ERR_DISCONNECTED = -23 };

static struct {
    AvahiThreadedPoll *(*poll_new)(void);
    const AvahiPoll *(*poll_get)(AvahiThreadedPoll *poll);
    int (*poll_start)(AvahiThreadedPoll *poll);
    int (*poll_stop)(AvahiThreadedPoll *poll);
    void (*poll_free)(AvahiThreadedPoll *poll);
    void (*poll_lock)(AvahiThreadedPoll *poll);
    void (*poll_unlock)(AvahiThreadedPoll *poll);
    AvahiClient *(*client_new)(const AvahiPoll *poll, int flags, AvahiClientCallback callback, void *userdata, int *error);
    void (*client_free)(AvahiClient *client);
    int (*client_errno)(AvahiClient *client);
    const char *(*client_host_name_fqdn)(AvahiClient *client);
    AvahiEntryGroup *(*group_new)(AvahiClient *client, AvahiEntryGroupCallback callback, void *userdata);
    int (*group_free)(AvahiEntryGroup *group);
    int (*group_reset)(AvahiEntryGroup *group);
    int (*group_commit)(AvahiEntryGroup *group);
    int (*group_add_service)(AvahiEntryGroup *group, int interface, int protocol, int flags, const char *name,
                             const char *type, const char *domain, const char *host, unsigned short port, ...);
    const char *(*strerror)(int error);
    char *(*alternative_service_name)(const char *name);
    void (*free)(void *memory);
} avahi;

static const FieldbookSymbol functions[] = {
#define FUNCTION(field, symbol) { symbol, offsetof(__typeof__(avahi), field) }
    FUNCTION(poll_new, "avahi_threaded_poll_new"), FUNCTION(poll_get, "avahi_threaded_poll_get"),
    FUNCTION(poll_start, "avahi_threaded_poll_start"), FUNCTION(poll_stop, "avahi_threaded_poll_stop"),
    FUNCTION(poll_free, "avahi_threaded_poll_free"), FUNCTION(poll_lock, "avahi_threaded_poll_lock"),
    FUNCTION(poll_unlock, "avahi_threaded_poll_unlock"), FUNCTION(client_new, "avahi_client_new"),
    FUNCTION(client_free, "avahi_client_free"), FUNCTION(client_errno, "avahi_client_errno"),
    FUNCTION(client_host_name_fqdn, "avahi_client_get_host_name_fqdn"),
    FUNCTION(group_new, "avahi_entry_group_new"), FUNCTION(group_free, "avahi_entry_group_free"),
    FUNCTION(group_reset, "avahi_entry_group_reset"), FUNCTION(group_commit, "avahi_entry_group_commit"),
    FUNCTION(group_add_service, "avahi_entry_group_add_service"), FUNCTION(strerror, "avahi_strerror"),
    FUNCTION(alternative_service_name, "avahi_alternative_service_name"), FUNCTION(free, "avahi_free"),
#undef FUNCTION
};

static char start_failure[512];

/* Called once per process (LANAnnouncer's `startFailure`). */
int fieldbook_avahi_start(void) {
    const char *names[] = {"libavahi-client.so.3", "libavahi-client.so"};
    return fieldbook_library_open(names, sizeof names / sizeof names[0], "libavahi-client3", functions,
                                  sizeof functions / sizeof functions[0], &avahi, start_failure, sizeof start_failure)
        ? 0 : -1;
}

const char *fieldbook_avahi_start_failure(void) { return start_failure[0] ? start_failure : NULL; }

/* Everything below runs on Avahi's thread (its callbacks), or with its lock held. */
struct FieldbookAnnouncement {
    AvahiThreadedPoll *poll;
    AvahiClient *client;
    AvahiEntryGroup *group;
    char *name;
    char *type;
    unsigned short port;
    int announced;
    FieldbookAnnouncementReport report;
    void *context;
};

/* Only changes are told, so a daemon that stays away is one log line, not one per retry. */
static void tell(FieldbookAnnouncement *a, int announced, const char *message) {
    if (announced == a->announced && !announced) return;
    a->announced = announced;
    /* The name Avahi answers for now: the machine's own, or another after a host-name collision on the LAN. */
    const char *host_name = announced && a->client ? avahi.client_host_name_fqdn(a->client) : NULL;
    a->report(a->context, announced, message, host_name);
}

static void client_changed(AvahiClient *client, int state, void *userdata);

static void group_changed(AvahiEntryGroup *group, int state, void *userdata) {
    FieldbookAnnouncement *a = userdata;
    char message[512];
    if (state == GROUP_ESTABLISHED) {
        snprintf(message, sizeof message, "Announced \"%s\" (%s, port %u) on the network through Avahi", a->name, a->type, a->port);
        tell(a, 1, message);
    } else if (state == GROUP_COLLISION) {
        /* Another machine on the LAN has the name: take Avahi's next one ("... #2") and announce again. */
        char *other = avahi.alternative_service_name(a->name);
        free(a->name);
        a->name = strdup(other);
        avahi.free(other);
        avahi.group_reset(group);
        client_changed(a->client, CLIENT_S_RUNNING, a);
    } else if (state == GROUP_FAILURE) {
        snprintf(message, sizeof message, "Avahi did not announce \"%s\": %s", a->name,
                 avahi.strerror(avahi.client_errno(a->client)));
        tell(a, 0, message);
    }
}

static void publish(FieldbookAnnouncement *a, AvahiClient *client) {
    if (!a->group) a->group = avahi.group_new(client, group_changed, a);
    if (!a->group) return;
    avahi.group_reset(a->group);
    int error = avahi.group_add_service(a->group, IF_UNSPEC, PROTO_UNSPEC, 0, a->name, a->type, NULL, NULL, a->port,
                                        "path=/", NULL);
    if (!error) error = avahi.group_commit(a->group);
    if (error) {
        char message[512];
        snprintf(message, sizeof message, "Avahi did not announce \"%s\": %s", a->name, avahi.strerror(error));
        tell(a, 0, message);
    }
}

static void client_changed(AvahiClient *client, int state, void *userdata) {
    FieldbookAnnouncement *a = userdata;
    a->client = client;
    switch (state) {
    case CLIENT_S_RUNNING:
        publish(a, client);
        break;
    case CLIENT_S_COLLISION:
    case CLIENT_S_REGISTERING:
        /* The machine's own host name is changing: announce again once the daemon runs under the new one. */
        if (a->group) avahi.group_reset(a->group);
        break;
    case CLIENT_CONNECTING:
        /* The daemon is absent or went away: its entry groups went with it. The client comes back by itself. */
        if (a->group) { avahi.group_free(a->group); a->group = NULL; }
        tell(a, 0, "Avahi is not running: Fieldbook is not announced on the network until it starts (devices type its address)");
        break;
    case CLIENT_FAILURE:
        if (a->group) { avahi.group_free(a->group); a->group = NULL; }
        tell(a, 0, "Avahi failed: Fieldbook is not announced on the network (devices type its address)");
        if (avahi.client_errno(client) == ERR_DISCONNECTED) {
            /* A daemon that restarts ends the client; a new one waits for it to come back. */
            avahi.client_free(client);
            int error = 0;
            a->client = avahi.client_new(avahi.poll_get(a->poll), CLIENT_NO_FAIL, client_changed, a, &error);
        }
        break;
    }
}

FieldbookAnnouncement *fieldbook_announce(const char *name, const char *type, unsigned short port,
                                          FieldbookAnnouncementReport report, void *context) {
    FieldbookAnnouncement *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->name = strdup(name);
    a->type = strdup(type);
    a->port = port;
    a->report = report;
    a->context = context;
    a->announced = -1;
    a->poll = avahi.poll_new();
    int error = 0;
    if (a->poll) a->client = avahi.client_new(avahi.poll_get(a->poll), CLIENT_NO_FAIL, client_changed, a, &error);
    if (!a->poll || !a->client || avahi.poll_start(a->poll) < 0) {
        char message[512];
        snprintf(message, sizeof message, "Avahi could not be used: %s", a->poll ? avahi.strerror(error) : "no thread");
        report(context, 0, message, NULL);
        fieldbook_announcement_stop(a);
        return NULL;
    }
    return a;
}

void fieldbook_announcement_stop(FieldbookAnnouncement *a) {
    if (!a) return;
    if (a->poll) avahi.poll_stop(a->poll);
    /* Freeing the client withdraws what it announced. */
    if (a->group) avahi.group_free(a->group);
    if (a->client) avahi.client_free(a->client);
    if (a->poll) avahi.poll_free(a->poll);
    free(a->name);
    free(a->type);
    free(a);
}
