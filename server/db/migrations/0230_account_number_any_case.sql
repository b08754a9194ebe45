-- Accounts by the number a customer reads out, in whatever case it was typed (the blotter's account filter, the
-- account filters of the other listings and the audit trail's target, through selectAccountByIdOrNumber): numbers
-- compare upper-cased, as the upstream's own filter ignores their case. This index serves that comparison and takes
-- the place of the plain one of 0100, which no query reads any more.
CREATE INDEX account_directory_number_upper ON account_directory (upper(account_number));
DROP INDEX account_directory_number;
