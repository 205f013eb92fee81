-- index corrected_frames_author_id_index
CREATE INDEX `corrected_frames_author_id_index` on `corrected_frames` (`author_id`);

-- index corrected_frames_file_id_frame_index_unique
CREATE UNIQUE INDEX `corrected_frames_file_id_frame_index_unique` on `corrected_frames` (`file_id`, `frame_index`);

-- index files_list_record_parts_index
CREATE INDEX files_list_record_parts_index ON files (user_id, created_at, id, media_deleted_at, list_record_0, list_record_1);

-- index files_location_search_index
CREATE INDEX files_location_search_index ON files (location, status_time, id, description, media_deleted_at, search_record_0, search_record_1);

-- index files_retention_from_index
CREATE INDEX files_retention_from_index ON files (retention_from);

-- index files_search_record_parts_index
CREATE INDEX files_search_record_parts_index ON files (status_time, id, location, description, media_deleted_at, search_record_0, search_record_1);

-- index files_status_time_index
CREATE INDEX `files_status_time_index` on `files` (`status_time`);

-- index files_stored_name_unique
CREATE UNIQUE INDEX `files_stored_name_unique` on `files` (`stored_name`);

-- index hornet_alerts_file_id_unique
CREATE UNIQUE INDEX `hornet_alerts_file_id_unique` on `hornet_alerts` (`file_id`);

-- index jobs_file_id_unique
CREATE UNIQUE INDEX `jobs_file_id_unique` on `jobs` (`file_id`);

-- index jobs_state_priority_id_index
CREATE INDEX `jobs_state_priority_id_index` on `jobs` (`state`, `priority`, `id`);

-- index location_calibrations_state_index
CREATE INDEX `location_calibrations_state_index` on `location_calibrations` (`state`);

-- index location_calibrations_user_id_location_unique
CREATE UNIQUE INDEX `location_calibrations_user_id_location_unique` on `location_calibrations` (`user_id`, `location`);

-- index locations_user_id_name_unique
CREATE UNIQUE INDEX `locations_user_id_name_unique` on `locations` (`user_id`, `name`);

-- index password_resets_token_hash_unique
CREATE UNIQUE INDEX `password_resets_token_hash_unique` on `password_resets` (`token_hash`);

-- index products_user_id_index
CREATE INDEX `products_user_id_index` on `products` (`user_id`);

-- index queue_turns_served_seq_index
CREATE INDEX `queue_turns_served_seq_index` on `queue_turns` (`served_seq`);

-- index rate_limit_hits_at_index
CREATE INDEX `rate_limit_hits_at_index` on `rate_limit_hits` (`at`);

-- index rate_limit_hits_key_at_index
CREATE INDEX `rate_limit_hits_key_at_index` on `rate_limit_hits` (`key`, `at`);

-- index sessions_user_id_index
CREATE INDEX `sessions_user_id_index` on `sessions` (`user_id`);

-- index users_email_unique
CREATE UNIQUE INDEX `users_email_unique` on `users` (`email`);

-- table comparisons
CREATE TABLE `comparisons` (`id` integer not null primary key autoincrement, `user_id` integer not null, `group_one_json` text not null, `group_two_json` text not null, `result_json` text not null, `created_at` varchar(32) not null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table corrected_frames
CREATE TABLE `corrected_frames` (`id` integer not null primary key autoincrement, `file_id` integer not null, `frame_index` integer not null, `time_s` float not null, `still_name` varchar(255) not null, `width` integer not null, `height` integer not null, `labels_json` text not null, `model_json` text not null, `author_id` integer not null, `edited_by` integer null, `reviewed` boolean not null default '0', `created_at` varchar(255) not null, `updated_at` varchar(255) not null, foreign key(`file_id`) references `files`(`id`) on delete CASCADE, foreign key(`author_id`) references `users`(`id`) on delete CASCADE);

-- table file_locations
CREATE TABLE file_locations (location text PRIMARY KEY) WITHOUT ROWID;

-- table files
CREATE TABLE `files` (`id` integer not null primary key autoincrement, `user_id` integer not null, `original_name` varchar(255) not null, `stored_name` varchar(255) not null, `kind` varchar(8) not null, `format` varchar(8) not null, `size_bytes` bigint not null, `description` text not null, `location` varchar(200) not null, `status` varchar(16) not null, `status_reason` text null, `status_time` varchar(32) not null, `created_at` varchar(32) not null, `processed_at` varchar(32) null, `media_deleted_at` varchar(32) null, `counts_json` text null, `summary_json` text null, `frames_json` text null, `preview_name` varchar(255) null, list_record_0 text, list_record_1 text, search_record_0 text, search_record_1 text, `retention_from` varchar(32) null, detections_json text, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table hornet_alerts
CREATE TABLE `hornet_alerts` (`id` integer not null primary key autoincrement, `file_id` integer not null, `sent_at` varchar(32) not null, foreign key(`file_id`) references `files`(`id`) on delete CASCADE);

-- table jobs
CREATE TABLE `jobs` (`id` integer not null primary key autoincrement, `file_id` integer not null, `priority` integer not null default '0', `state` varchar(16) not null default 'queued', `attempts` integer not null default '0', `max_attempts` integer not null default '3', `lease_owner` varchar(128) null, `lease_until` varchar(32) null, `last_error` text null, `created_at` varchar(32) not null, `updated_at` varchar(32) not null, foreign key(`file_id`) references `files`(`id`) on delete CASCADE);

-- table location_calibrations
CREATE TABLE `location_calibrations` (`id` integer not null primary key autoincrement, `user_id` integer not null, `location` varchar(200) not null, `state` varchar(16) not null, `calibration_json` text null, `error` text null, `enabled` boolean not null default '0', `requested_at` varchar(32) not null, `fitted_at` varchar(32) null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table locations
CREATE TABLE `locations` (`id` integer not null primary key autoincrement, `user_id` integer not null, `name` varchar(200) not null, `position` integer not null default '0', `entrance_json` text null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table password_resets
CREATE TABLE `password_resets` (`id` integer not null primary key autoincrement, `user_id` integer not null, `token_hash` varchar(64) not null, `created_at` varchar(32) not null, `expires_at` varchar(32) not null, `used_at` varchar(32) null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table products
CREATE TABLE `products` (`id` integer not null primary key autoincrement, `user_id` integer not null, `product_name` varchar(64) not null, `start_date` varchar(10) not null, `end_date` varchar(10) not null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE);

-- table queue_turns
CREATE TABLE `queue_turns` (`user_id` integer, `served_seq` bigint not null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE, primary key (`user_id`));

-- table rate_limit_hits
CREATE TABLE `rate_limit_hits` (`id` integer not null primary key autoincrement, `key` varchar(400) not null, `at` varchar(32) not null);

-- table sessions
CREATE TABLE `sessions` (`id` varchar(64), `user_id` integer not null, `created_at` varchar(32) not null, `last_seen_at` varchar(32) not null, `expires_at` varchar(32) not null, `revoked_at` varchar(32) null, foreign key(`user_id`) references `users`(`id`) on delete CASCADE, primary key (`id`));

-- table upload_counts
CREATE TABLE `upload_counts` (`user_id` integer not null, `day` varchar(10) not null, `count` integer not null default '0', foreign key(`user_id`) references `users`(`id`) on delete CASCADE, primary key (`user_id`, `day`));

-- table users
CREATE TABLE `users` (`id` integer not null primary key autoincrement, `email` varchar(320) not null, `name` varchar(200) not null, `password_hash` varchar(255) not null, `role` varchar(16) not null default 'USER', `created_at` varchar(32) not null, `hornet_alerts` boolean not null default '1', `training_consent_at` varchar(255) null, `training_consent_revoked_at` varchar(255) null, `sign_in_alert_at` varchar(32) null);

-- trigger file_locations_after_insert
CREATE TRIGGER file_locations_after_insert AFTER INSERT ON files BEGIN
      INSERT OR IGNORE INTO file_locations (location) VALUES (NEW.location);
    END;

-- trigger file_locations_after_update
CREATE TRIGGER file_locations_after_update AFTER UPDATE OF location ON files BEGIN
      INSERT OR IGNORE INTO file_locations (location) VALUES (NEW.location);
    END;

-- trigger files_record_parts_after_insert
CREATE TRIGGER files_record_parts_after_insert AFTER INSERT ON files BEGIN
      UPDATE files SET list_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, list_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ']' END, search_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, search_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ',' || json_quote((SELECT users.email FROM users WHERE users.id = files.user_id)) || ']' END WHERE files.id = NEW.id;
    END;

-- trigger files_record_parts_after_update
CREATE TRIGGER files_record_parts_after_update AFTER UPDATE OF original_name, status, location, status_time, user_id ON files BEGIN
      UPDATE files SET list_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, list_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ']' END, search_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, search_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ',' || json_quote((SELECT users.email FROM users WHERE users.id = files.user_id)) || ']' END WHERE files.id = NEW.id;
    END;

-- trigger users_email_record_parts_after_update
CREATE TRIGGER users_email_record_parts_after_update AFTER UPDATE OF email ON users BEGIN
        UPDATE files SET list_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, list_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ']' END, search_record_0 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END, search_record_1 = CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ',' || json_quote((SELECT users.email FROM users WHERE users.id = files.user_id)) || ']' END WHERE files.user_id = NEW.id;
      END;
