<?php
/**
 * Deleting the plugin (Plugins → Delete) removes its settings, on every site of a network.
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $dialback_site ) {
		switch_to_blog( $dialback_site );
		delete_option( 'dialback_settings' );
		restore_current_blog();
	}
} else {
	delete_option( 'dialback_settings' );
}
