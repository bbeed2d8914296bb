/**
 * The HTTP API and web page of {@code openbook serve}: bearer-token authentication that maps a
 * token to a {@link org.openbook.retrieve.Principal} from the server's configuration (never from
 * a request body), JSON and Server-Sent-Events answers, live document upload and delete through
 * the incremental {@link org.openbook.ingest.Indexer}, Prometheus metrics and an audit log.
 */
package org.openbook.app.server;
