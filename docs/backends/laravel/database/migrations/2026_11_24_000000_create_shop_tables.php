<?php

use Illuminate\Database\Migrations\Migration;
use Illuminate\Database\Schema\Blueprint;
use Illuminate\Support\Facades\Schema;

return new class extends Migration
{
    public function up(): void
    {
        Schema::create('orders', function (Blueprint $table): void {
            $table->id();
            $table->string('order_id', 100)->unique();
            $table->string('amount', 32);
            $table->string('currency_code', 8)->default('XOF');
            $table->boolean('paid')->default(false);
            $table->timestamp('paid_at')->nullable();
            $table->integer('fulfilments')->default(0);
            $table->timestamps();
        });
        Schema::create('handled_notifications', function (Blueprint $table): void {
            // The primary key is the webhook-id: a second insert of the same one fails.
            $table->string('webhook_id', 200)->primary();
            $table->string('order_id', 100);
            $table->string('state', 32);
            $table->timestamps();
        });
    }

    public function down(): void
    {
        Schema::drop('handled_notifications');
        Schema::drop('orders');
    }
};
