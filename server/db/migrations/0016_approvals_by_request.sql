-- A movement's page shows the approval requests that held it: found by its client_request_id.
CREATE INDEX approval_requests_client_request ON approval_requests (client_request_id) WHERE client_request_id IS NOT NULL;
