-- Roles as rows: the four built-in ones, whose permissions are the code's table (lib/auth/permissions.ts), and the
-- custom ones an administrator makes from the permission list (Admin → Roles), whose permissions are here. A staff
-- member's role and the two-factor requirement name a row, so a role someone holds cannot be deleted, and a role
-- that does not exist cannot be given.
CREATE TABLE staff_roles (
  key text PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9-]{1,39}$'),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 60),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 300),
  built_in boolean NOT NULL DEFAULT false,
  -- A custom role's permissions, by name; null for a built-in role.
  permissions text[] CHECK ((permissions IS NULL) = built_in),
  created_by uuid REFERENCES staff_users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES staff_users (id),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX staff_roles_label_idx ON staff_roles (lower(label));

INSERT INTO staff_roles (key, label, built_in) VALUES
  ('admin', 'Administrator', true),
  ('operations', 'Operations', true),
  ('support', 'Support', true),
  ('compliance', 'Compliance', true);

ALTER TABLE staff_users DROP CONSTRAINT staff_users_role_check;
ALTER TABLE staff_users ADD CONSTRAINT staff_users_role_fkey FOREIGN KEY (role) REFERENCES staff_roles (key);
CREATE INDEX staff_users_role_idx ON staff_users (role);

ALTER TABLE role_two_factor DROP CONSTRAINT role_two_factor_role_check;
ALTER TABLE role_two_factor ADD CONSTRAINT role_two_factor_role_fkey FOREIGN KEY (role) REFERENCES staff_roles (key) ON DELETE CASCADE;
