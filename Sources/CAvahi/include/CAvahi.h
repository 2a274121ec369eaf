/* The machine's Avahi daemon, through libavahi-client, to announce Fieldbook on the LAN by DNS-SD/mDNS (Sources/App/
   LANAnnouncer.swift is the one Swift file that calls it).

   libavahi-client is opened with dlopen when serve first announces, like libvips (CVips.h): a Fieldbook serving only
   loopback never loads it, and a machine without it (or without the daemon) still serves, at an address typed by
   hand. So this header declares only what Fieldbook needs and includes none of Avahi's own. */
#ifndef FIELDBOOK_AVAHI_H
#define FIELDBOOK_AVAHI_H

/* A service kept announced on Avahi's own thread until `fieldbook_announcement_stop`. */
typedef struct FieldbookAnnouncement FieldbookAnnouncement;

/* Told, on Avahi's thread, each time the service becomes announced or stops being (`announced` 1 or 0), with what
   happened in words for the log, and while announced the host name Avahi answers for (`NAME.local`; another, such as
   `NAME-2.local`, when a machine on the LAN has the same name), NULL otherwise. */
typedef void (*FieldbookAnnouncementReport)(void *context, int announced, const char *message, const char *host_name);

/* Opens libavahi-client, once per process. 0 when it is ready; -1 otherwise, with the reason in
   `fieldbook_avahi_start_failure`. */
int fieldbook_avahi_start(void);

const char *fieldbook_avahi_start_failure(void);

/* Announces `name` as a `type` service (`_https._tcp`) on `port` of every interface, and keeps announcing it while the
   daemon comes and goes (absent at start, restarted): the client waits for it rather than failing. NULL when Avahi's
   thread could not start. */
FieldbookAnnouncement *fieldbook_announce(const char *name, const char *type, unsigned short port,
                                          FieldbookAnnouncementReport report, void *context);

/* Withdraws the service and stops the thread. */
void fieldbook_announcement_stop(FieldbookAnnouncement *announcement);

#endif
