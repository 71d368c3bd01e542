<?php
/**
 * Plugin Name:       Dialback click-to-call widget
 * Description:       Adds the Dialback click-to-call widget to your site: a visitor leaves a number and is called back through your call-tracking service, with the visit's utm source and client id.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            The Dialback contributors
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       dialback
 *
 * The widget is one script tag from your Dialback relay, configured by data-* attributes
 * (docs/embedding.md). This plugin keeps those settings in one option, prints the tag in the footer
 * with them, and tells the widget what the visitor allowed when the WP Consent API is installed.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'DIALBACK_OPTION', 'dialback_settings' );
define( 'DIALBACK_PLUGIN', plugin_basename( __FILE__ ) );

require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/admin.php';
require_once __DIR__ . '/includes/frontend.php';

// The option exists from the start: a first save then updates it, and its checks run once.
register_activation_hook(
	__FILE__,
	function () {
		add_option( DIALBACK_OPTION, dialback_settings() );
	}
);

// Tells the WP Consent API that this plugin follows it (the API's Site Health check lists the rest).
add_filter( 'wp_consent_api_registered_' . DIALBACK_PLUGIN, '__return_true' );
