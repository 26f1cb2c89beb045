DROP TABLE webhook_events;
